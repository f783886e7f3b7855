import { z } from "zod";
import { COMMON_IGNORED, type PolicyTable } from "../../../core/planner";
import { deriveName } from "../../../core/naming";
import { describeValue, isUnknown, oneOf, orUnknown, UNKNOWN } from "../../../core/validation";
import { timeouts, type Timeouts } from "../../fields";
import { deterministicUuid } from "../common";
import { nonNegative, percent, stringList, text } from "../schema-blocks";

/** Resource kinds a Peloton pool limits. */
export const RESOURCE_KINDS = ["cpu", "memory", "disk", "gpu"] as const;

/** One resource of a pool, as validated. */
export interface PoolResource {
  kind: (typeof RESOURCE_KINDS)[number];
  reservation: number;
  limit: number;
  share?: number;
  type?: "ELASTIC" | "STATIC";
}

/** Validated inputs of a resource pool. */
export interface ResourcePoolInputs {
  owner: string;
  resourceName: string;
  name?: string;
  parent?: string;
  resources?: PoolResource[];
  policy?: "PRIORITY_FIFO";
  controllerLimit?: { maxPercent: number };
  slackLimit?: { maxPercent: number };
  owningTeam?: string;
  ldapGroups?: string[];
  description?: string;
  /** Derived: the pool id, a UUID from the owner and the parent. */
  respoolId?: string;
  timeouts?: Timeouts;
}

/** A pool name: Peloton forbids `/` (it separates path segments). */
const poolName = () =>
  orUnknown(
    z.unknown().transform((v, ctx) => {
      if (typeof v === "string" && v !== "" && !v.includes("/") && v.length <= 255) return v;
      ctx.addIssue({ code: "custom", message: `must be 1 to 255 characters without "/", got ${describeValue(v)}`, input: v });
      return z.NEVER;
    }),
  );

/** `root`, a pool id, or an absolute path such as `/infrastructure/compute`. */
const parentRef = () =>
  orUnknown(
    z.unknown().transform((v, ctx) => {
      if (typeof v === "string" && v.trim() !== "" && (!v.startsWith("/") || !v.includes("//"))) return v.trim();
      ctx.addIssue({
        code: "custom",
        message: `must be "root", a pool id, or an absolute path such as "/infrastructure/compute", got ${describeValue(v)}`,
        input: v,
      });
      return z.NEVER;
    }),
  );

const resource = z
  .object({
    kind: oneOf(RESOURCE_KINDS),
    reservation: nonNegative(),
    limit: nonNegative(),
    share: nonNegative().optional(),
    type: oneOf(["ELASTIC", "STATIC"]).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (typeof r.limit === "number" && typeof r.reservation === "number" && r.limit < r.reservation) {
      ctx.addIssue({ code: "custom", path: ["limit"], message: `must be at least the reservation ${r.reservation}, got ${r.limit}`, input: r.limit });
    }
  });

const resources = orUnknown(
  z.array(orUnknown(resource)).superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((r, i) => {
      if (isUnknown(r) || isUnknown(r.kind)) return;
      if (seen.has(r.kind)) {
        ctx.addIssue({ code: "custom", path: [i, "kind"], message: `must be unique: ${JSON.stringify(r.kind)} appears twice`, input: r.kind });
      }
      seen.add(r.kind);
    });
  }),
);

const limit = () => orUnknown(z.object({ maxPercent: percent() }).strict());

export const resourcePoolSchema: z.ZodType<ResourcePoolInputs, unknown> = z
  .object({
    owner: z.string().min(1),
    resourceName: z.string().min(1),
    name: poolName().optional(),
    parent: parentRef().optional(),
    resources: resources.optional(),
    policy: oneOf(["PRIORITY_FIFO"]).optional(),
    controllerLimit: limit().optional(),
    slackLimit: limit().optional(),
    owningTeam: text().optional(),
    ldapGroups: stringList().optional(),
    description: text().optional(),
    respoolId: z.string().optional(),
    timeouts: timeouts(),
  })
  .strict();

/** Everything but the parent is one UpdateResourcePool; a new parent replaces the pool. */
export const resourcePoolPolicies: PolicyTable = {
  ...COMMON_IGNORED,
  respoolId: { kind: "ignore" },
  parent: { kind: "replace" },
  name: { kind: "update", operation: "UpdateResourcePool" },
  resources: { kind: "update", operation: "UpdateResourcePool" },
  policy: { kind: "update", operation: "UpdateResourcePool" },
  controllerLimit: { kind: "update", operation: "UpdateResourcePool" },
  slackLimit: { kind: "update", operation: "UpdateResourcePool" },
  owningTeam: { kind: "update", operation: "UpdateResourcePool" },
  ldapGroups: { kind: "update", operation: "UpdateResourcePool" },
  description: { kind: "update", operation: "UpdateResourcePool" },
};

/** The parent a pool without `parent` gets. */
export const ROOT = "root";

/**
 * Fills the parent (`root` when unset), the derived name (resource name plus a hash of the owner)
 * and the pool id (a UUID of the owner and the parent: a replacement, which needs a new parent,
 * gets a new id).
 */
export function completeResourcePool<T extends ResourcePoolInputs>(olds: Record<string, unknown>, news: T): T {
  const parent = news.parent ?? ROOT;
  const name = news.name ?? deriveName(news.resourceName, JSON.stringify([news.owner]));
  const keep = typeof olds.respoolId === "string" && olds.owner === news.owner && (olds.parent ?? ROOT) === parent;
  const respoolId = isUnknown(parent) ? UNKNOWN : keep ? (olds.respoolId as string) : deterministicUuid(news.owner, parent);
  return { ...news, name, parent, respoolId };
}

/** Pools are quick to create; the defaults leave room for a busy resource manager. */
export const POOL_TIMEOUTS: Required<Timeouts> = { create: "5m", update: "5m", delete: "10m" };

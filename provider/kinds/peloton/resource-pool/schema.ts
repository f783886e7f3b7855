import { z } from "zod";
import { deriveName } from "../../../core/naming";
import { describeValue, isUnknown, orUnknown, UNKNOWN } from "../../../core/validation";
import { defineFields, type InputsOf, OWNERSHIP } from "../../../core/definition/kind";
import { inPlace, optional, replace, required, type Value, v } from "../../../core/definition/values";
import { defineCalls, extendCalls } from "../../../core/plan/calls";
import { deterministicUuid } from "../common";
import { nonNegative, percent, stringList, text } from "../schema-blocks";

/** Resource kinds a Peloton pool limits. */
export const RESOURCE_KINDS = ["cpu", "memory", "disk", "gpu"] as const;

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

const resource = v.object(
  "Resource",
  "One resource kind a pool reserves and limits.",
  {
    kind: required(v.oneOf(RESOURCE_KINDS), { description: '`"cpu"`, `"memory"` (MB), `"disk"` (MB) or `"gpu"`; each kind at most once.' }),
    reservation: required(v.custom({ kind: "number" }, nonNegative()), { description: "Guaranteed amount, >= 0." }),
    limit: required(v.custom({ kind: "number" }, nonNegative()), {
      description: "Most the pool's pods may use together, >= `reservation`. Pods beyond it stay PENDING.",
    }),
    share: optional(v.custom({ kind: "number" }, nonNegative()), { description: "Weight when sharing spare capacity with sibling pools, >= 0.", default: "1" }),
    type: optional(v.oneOf(["ELASTIC", "STATIC"]), { description: '`"ELASTIC"` (lends unused reservation) or `"STATIC"`.', default: '"ELASTIC"' }),
  },
  (r, ctx) => {
    if (typeof r.limit === "number" && typeof r.reservation === "number" && r.limit < r.reservation) {
      ctx.addIssue({ code: "custom", path: ["limit"], message: `must be at least the reservation ${r.reservation}, got ${r.limit}`, input: r.limit });
    }
  },
);

/** One resource of a pool, as validated. */
export type PoolResource = typeof resource extends Value<infer T> ? T : never;

const resources = orUnknown(
  z.array(resource.validate).superRefine((list, ctx) => {
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

const limit = (what: string) =>
  v.object(`${what}Limit`, `Most of the pool ${what === "Controller" ? "controllers" : "revocable (slack) pods"} may use.`, {
    maxPercent: required(v.custom({ kind: "number" }, percent()), { description: "The limit in percent, 0 to 100." }),
  });

/** The Peloton call an in-place update of a pool makes (the whole configuration at once); operations.ts has its executor. */
export const POOL_UPDATE_CALLS = defineCalls("UpdateResourcePool");

/** Every Peloton call a pool's plans name, each written once: the update's, then create's and delete's. */
export const POOL_CALLS = extendCalls(POOL_UPDATE_CALLS, "CreateResourcePool", "DeleteResourcePool");

const UPDATE = inPlace(POOL_CALLS.UpdateResourcePool);

/** `peloton:ResourcePool`, every field written once. Every field but `parent` changes in place with one UpdateResourcePool. */
export const resourcePoolKind = defineFields({
  type: "peloton:ResourcePool",
  description:
    "A Peloton resource pool (v1alpha ResourcePoolService). Its id is derived from the stack, the resource and the parent, " +
    "so an interrupted create is adopted. Every field but `parent` changes in place with one UpdateResourcePool. Deleting a " +
    "pool that still has child pools or jobs fails and names them.",
  hidden: {
    ...OWNERSHIP,
    respoolId: optional(v.custom({ kind: "string" }, z.string()), { description: "Derived: the pool id, a UUID from the owner and the parent." }),
  },
  inputs: {
    parent: optional(v.custom({ kind: "string" }, parentRef()), {
      computed: true,
      description: 'The parent: `"root"`, a pool id (e.g. another pool\'s `respoolId`) or an absolute path such as `"/infrastructure"`.',
      default: '"root"',
      policy: replace,
    }),
    name: optional(v.custom({ kind: "string" }, poolName()), {
      computed: true,
      description: "The pool's name: 1 to 255 characters without `/`, unique among its siblings.",
      default: "the resource name, `-` and a 7-character hash",
      policy: UPDATE,
    }),
    resources: optional(v.custom({ kind: "list", of: resource.type }, resources), {
      description: "Reservations and limits per resource kind.",
      default: "[] (no limits)",
      policy: UPDATE,
    }),
    policy: optional(v.oneOf(["PRIORITY_FIFO"]), {
      description: 'Scheduling policy; Peloton knows only `"PRIORITY_FIFO"`.',
      default: '"PRIORITY_FIFO"',
      policy: UPDATE,
    }),
    controllerLimit: optional(limit("Controller"), { description: "Most of the pool controllers may use, in percent.", default: "no limit", policy: UPDATE }),
    slackLimit: optional(limit("Slack"), { description: "Most of the pool revocable (slack) pods may use, in percent.", default: "no limit", policy: UPDATE }),
    owningTeam: optional(v.custom({ kind: "string" }, text()), { description: "The team owning the pool.", default: '""', policy: UPDATE }),
    ldapGroups: optional(v.custom({ kind: "list", of: { kind: "string" } }, stringList()), {
      description: "LDAP groups allowed to use the pool.",
      default: "[]",
      policy: UPDATE,
    }),
    description: optional(v.custom({ kind: "string" }, text()), { description: "Free text.", default: '""', policy: UPDATE }),
  },
  outputs: {
    respoolId: { type: { kind: "string" }, description: "The pool id (a UUID): give it to `StatelessJob.respoolId` or as another pool's `parent`." },
    path: { type: { kind: "string" }, description: "The absolute path, e.g. `/infrastructure/compute`." },
    parentId: { type: { kind: "string" }, description: "The parent's id." },
    usages: {
      type: {
        kind: "list",
        of: {
          kind: "object",
          name: "ResourceUsage",
          description: "What the pool's pods use of one resource kind.",
          fields: {
            kind: required(v.string(), { description: "The resource kind." }),
            allocation: required(v.custom({ kind: "number" }, z.number()), { description: "Allocated amount." }),
            slack: required(v.custom({ kind: "number" }, z.number()), { description: "Slack (revocable) amount." }),
          },
        },
      },
      description: "What the pool's pods use per kind, as last read.",
    },
  },
  timeouts: { create: "5m", update: "5m", delete: "10m" },
  deletionPolicy: true,
  importId: {
    shape: "the resource pool id (a UUID)",
    example: "7d2c1f7e-0b6a-8c3d-9e4f-5a6b7c8d9e0f",
    unreported: [],
  },
});

/** Validated inputs of a resource pool. */
export type ResourcePoolInputs = InputsOf<typeof resourcePoolKind.inputs, typeof resourcePoolKind.hidden>;

export const resourcePoolSchema = resourcePoolKind.schema;

/** Everything but the parent is one UpdateResourcePool; a new parent replaces the pool. */
export const resourcePoolPolicies = resourcePoolKind.policies;

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
export const POOL_TIMEOUTS = resourcePoolKind.timeouts;

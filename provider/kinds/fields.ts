import { z } from "zod";
import type { Kind } from "../core/definition/kind";
import { Deadline } from "../core/deadline";
import { deriveName } from "../core/naming";
import { deepEqual } from "../core/planner";
import { durationString, isUnknown, orUnknown, UNKNOWN } from "../core/validation";

// Fields and helpers every platform's resources share: timeouts and their deadlines, the hidden
// identity inputs the SDK adds, and derived names.

/** The `timeouts` argument: how long create, update and delete may each take. */
export const timeouts = () =>
  orUnknown(
    z
      .object({ create: durationString().optional(), update: durationString().optional(), delete: durationString().optional() })
      .strict(),
  ).optional();

/** Timeouts as stored after check. */
export interface Timeouts {
  create?: string;
  update?: string;
  delete?: string;
}

/**
 * The deadline of one kind of operation: the resource's `timeouts` entry, else its default. Old
 * state without `timeouts` gets the defaults.
 */
export function deadlineFor(inputs: Record<string, unknown>, kind: keyof Timeouts, defaults: Required<Timeouts>): Deadline {
  const timeouts = (inputs.timeouts ?? {}) as Timeouts;
  return Deadline.fromDuration(timeouts[kind] ?? defaults[kind]);
}

/** The longest a refresh keeps retrying one read of an unreachable platform. */
export const READ_TIMEOUT_MS = 5 * 60_000;

/**
 * The deadline of a refresh read: the resource's update timeout, but no more than
 * {@link READ_TIMEOUT_MS}: a read is one call, and a refresh against a platform that is down should
 * fail in minutes, not after a long operation's allowance.
 */
export function readDeadline(props: Record<string, unknown>, defaults: Required<Timeouts>): Deadline {
  const update = deadlineFor(props, "update", defaults);
  return new Deadline(Math.min(update.timeoutMs, READ_TIMEOUT_MS));
}

/**
 * Hidden inputs the SDK adds to every resource (`sdk/internal/identity.ts`), plus the user's
 * optional `name` in the platform's own name syntax.
 */
export function identityFields<N extends z.ZodType>(name: N) {
  return {
    /** The ownership marker, stable for one Pulumi resource of one stack. */
    owner: z.string().min(1),
    /** The Pulumi resource name, the base of derived names. */
    resourceName: z.string().min(1),
    /** The user's name, if any. */
    name: name.optional(),
  };
}

interface Named {
  name?: string;
  autoNamed?: boolean;
  owner: string;
  resourceName: string;
}

/**
 * Fills `name` and `autoNamed`. A user-chosen name is kept as given. Otherwise the name is derived
 * from the resource name and a hash of the owner and the kind's seeds (the fields that force
 * replacement, kind.ts), so that (a) an interrupted `up` derives the same
 * name again and can adopt what it created, and (b) a replacement gets a new name and can be
 * created before the old object is deleted. While any of those fields is unknown (preview), the
 * name is unknown too.
 */
export function completeName<T extends Named>(olds: Record<string, unknown>, news: T, kind: Pick<Kind, "seeds">): T {
  const replaceFields = (inputs: Record<string, unknown>) => seedValues(kind, inputs);
  if (news.name !== undefined) return { ...news, autoNamed: false };
  const fields = replaceFields(news as unknown as Record<string, unknown>);
  if (fields.some(isUnknown)) return { ...news, name: UNKNOWN, autoNamed: true };
  // A name derived earlier stays while nothing that forces replacement changed, even if a later
  // release derives names differently: renaming would replace the object.
  const unchanged = olds.autoNamed === true && olds.owner === news.owner && deepEqual(replaceFields(olds), fields);
  if (unchanged && typeof olds.name === "string") return { ...news, name: olds.name, autoNamed: true };
  return { ...news, name: deriveName(news.resourceName, JSON.stringify([news.owner, ...fields])), autoNamed: true };
}

/**
 * An object's identity from its name parts (`cluster` or `cluster/pool`), or undefined while any
 * part is unknown (preview) or missing.
 */
export function identityOf(...parts: unknown[]): string | undefined {
  return parts.every((p) => typeof p === "string" && p !== "" && !isUnknown(p)) ? parts.join("/") : undefined;
}

/** The values of a kind's seeds (kind.ts): what derived names, ids and request ids hash. */
export function seedValues(kind: Pick<Kind, "seeds">, inputs: Record<string, unknown>): unknown[] {
  return kind.seeds.map((field) => inputs[field]);
}

import { isUnknown } from "./unknown";

/**
 * A size the platform may change on its own (a Senlin scaling policy or receiver, CycleCloud's
 * autoscaler): while the resource's `capacityOwner` is `"platform"`, the live value stands after
 * create and the program's is only the initial size (core/capacity.ts). The bounds are the inputs
 * the platform keeps the size within, when the kind has them.
 */
export interface PlatformSize {
  /** The input holding the lower bound. @default none */
  readonly min?: string;
  /** The input holding the upper bound; a negative value is unbounded. @default none */
  readonly max?: string;
}

/** How a change to one input field is carried out. */
export type FieldPolicy =
  /** The platform cannot change it: delete and create anew. */
  | { kind: "replace"; absentKeeps?: boolean }
  /** Changed in place by the named operation, e.g. `ScaleNodePool`; `platformSize` when the platform may own it after create. */
  | { kind: "update"; operation: string; absentKeeps?: boolean; platformSize?: PlatformSize }
  /** Changed in place in the state only, with no platform call, e.g. `deletionPolicy`. */
  | { kind: "record" }
  /** Never causes a change, e.g. `timeouts` or `__provider`. */
  | { kind: "ignore" };

/** The policy of every input field of one resource kind. */
export type PolicyTable = Readonly<Record<string, FieldPolicy>>;

/**
 * Fields the engine, the SDK or the core adds to every resource's inputs; spread into each table.
 * `deleteBeforeReplace` mirrors the resource option, which decides how a replacement runs;
 * `resourceUrn` lets operations report progress on the resource's row; `owner` (the ownership
 * marker) and `resourceName` (the base of derived names) never change for one resource.
 */
export const COMMON_IGNORED: PolicyTable = {
  __provider: { kind: "ignore" },
  owner: { kind: "ignore" },
  resourceName: { kind: "ignore" },
  timeouts: { kind: "ignore" },
  deleteBeforeReplace: { kind: "ignore" },
  resourceUrn: { kind: "ignore" },
  // The state schema version (definition/migration.ts): the core upgrades olds before planning.
  __schemaVersion: { kind: "ignore" },
};

/** An in-place change to one field. */
export interface PlannedUpdate {
  /** The changed field. */
  field: string;
  /** The operation that applies it. */
  operation: string;
}

/** The result of {@link planDiff}, shaped like Pulumi's diff answer plus the planned operations. */
export interface DiffPlan {
  /** True when some replace, update or record field changed. */
  changes: boolean;
  /** Changed replace fields, in table order. */
  replaces: string[];
  /** Changed update fields with their operations, in table order. */
  updates: PlannedUpdate[];
  /** Changed fields that only the state records (no platform call), in table order. */
  records: string[];
  /** Replace and update fields that did not change. */
  stables: string[];
}

/**
 * Deep equality by value: object key order does not matter, array order does, and a key holding
 * `undefined` equals a missing key.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (!deepEqual(a[key], b[key])) return false;
  return true;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

/**
 * Compares old and new inputs field by field under `table`. Keys present only in `olds` and
 * missing from the table are outputs of the old state and are skipped.
 * @throws Error when `news` holds a field the table does not list (a programming error).
 */
export function planDiff(
  table: PolicyTable,
  olds: Readonly<Record<string, unknown>>,
  news: Readonly<Record<string, unknown>>,
): DiffPlan {
  const missing = Object.keys(news).filter((key) => !Object.hasOwn(table, key));
  if (missing.length > 0) {
    throw new Error(`planDiff: no field policy for ${missing.map((k) => JSON.stringify(k)).join(", ")}`);
  }
  const plan: DiffPlan = { changes: false, replaces: [], updates: [], records: [], stables: [] };
  for (const [field, policy] of Object.entries(table)) {
    if (policy.kind === "ignore") continue;
    // An unknown value may turn out equal, but preview must show the possible change. A field the
    // platform defaults (`absentKeeps`) left out keeps whatever the object has.
    const kept = policy.kind !== "record" && policy.absentKeeps === true && news[field] === undefined;
    const changed = !kept && (isUnknown(news[field]) || !deepEqual(olds[field], news[field]));
    if (policy.kind === "record") {
      if (changed) plan.records.push(field);
    } else if (!changed) plan.stables.push(field);
    else if (policy.kind === "replace") plan.replaces.push(field);
    else plan.updates.push({ field, operation: policy.operation });
  }
  plan.changes = plan.replaces.length > 0 || plan.updates.length > 0 || plan.records.length > 0;
  return plan;
}

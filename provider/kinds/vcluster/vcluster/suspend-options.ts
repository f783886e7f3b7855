import type { z } from "zod";
import type { SuspendVClusterInput } from "../../../clients/vcluster/requests";
import { parseDuration } from "../../../core/deadline";
import type { Timeouts } from "../../../core/definition/kind";
import { optional, type Value, v } from "../../../core/definition/values";
import { known } from "../../../core/plan/operation";
import { dnsLabel, isUnknown, secondsDuration, UNKNOWN } from "../../../core/validation";

/** The longest drain timeout the API carries: `drain_timeout_seconds` is an int32. */
export const MAX_DRAIN_TIMEOUT_SECONDS = 2_147_483_647;

const suspendFields = {
  drainWorkloads: optional(v.boolean(), {
    description:
      "Evict the vcluster's workloads before its control plane stops (`drain_workloads`). The vcluster stays `RUNNING` while " +
      "its pods are evicted; it is suspended when the last one is gone.",
    default: "false: the control plane stops at once, and its workloads with it",
  }),
  drainTimeout: optional({ type: { kind: "string" }, validate: secondsDuration(1, MAX_DRAIN_TIMEOUT_SECONDS) } satisfies Value<string>, {
    description:
      'How long the drain may take, in whole seconds written as a duration (`"90s"`, `"5m"`; sent as `drain_timeout_seconds`). ' +
      "A drain that takes longer fails the suspend: the vcluster keeps running, `suspended` stays unapplied, and the next " +
      "`up` tries again. Needs `drainWorkloads`, and must be shorter than the operation's own timeout.",
    default: "none: the platform waits for every workload",
  }),
  createSnapshot: optional(v.boolean(), {
    description:
      "Take a snapshot of the vcluster before it is drained and suspended (`create_snapshot`). The snapshot is the platform's, not " +
      "the stack's: destroying the vcluster leaves it, and a drain that times out keeps it.",
    default: "false",
  }),
  snapshotName: optional({ type: { kind: "string" }, validate: dnsLabel({ maxLength: 63 }) } satisfies Value<string>, {
    description:
      "The snapshot's name, a DNS-1123 label (`snapshot_name`). Names are unique in the namespace, so a fixed name fails the next " +
      "suspend while the snapshot exists; leave it out for a new name each time. Needs `createSnapshot`.",
    default: "`<name>-suspend-<unix seconds>` (server)",
  }),
};

/** Validated suspend options. */
export interface SuspendOptions {
  drainWorkloads?: boolean;
  drainTimeout?: string;
  createSnapshot?: boolean;
  snapshotName?: string;
}

/** The options' own rules: a timeout needs a drain, a name needs a snapshot. */
function refineOptions(o: SuspendOptions, ctx: z.RefinementCtx): void {
  const needs = (field: keyof SuspendOptions, flag: keyof SuspendOptions) => {
    if (o[field] === undefined || isUnknown(o[field]) || isUnknown(o[flag]) || o[flag] === true) return;
    ctx.addIssue({ code: "custom", path: [field], message: `applies only with ${flag}: true, got ${JSON.stringify(o[field])} with ${flag} ${o[flag] ?? "unset"}`, input: o[field] });
  };
  needs("drainTimeout", "drainWorkloads");
  needs("snapshotName", "createSnapshot");
}

/** `suspendOptions`: how SuspendVCluster suspends the vcluster, each field one of the request's. */
export const suspendOptionsSpec = v.object(
  "SuspendOptions",
  "How SuspendVCluster suspends the vcluster: drain its workloads first, with a time limit, and take a snapshot.",
  suspendFields,
  refineOptions,
);

/**
 * The drain timeout must end before the time the provider waits for the suspend (the create's or
 * the update's timeout): otherwise the provider gives up while the platform still drains.
 * @returns the message (after the field's name), or undefined when the timeout fits.
 */
export function drainTimeoutProblem(options: SuspendOptions | undefined, timeouts: Timeouts | undefined, defaults: Required<Timeouts>): string | undefined {
  const drain = options?.drainTimeout;
  if (drain === undefined || isUnknown(drain) || isUnknown(timeouts)) return undefined;
  for (const kind of ["update", "create"] as const) {
    const limit = timeouts?.[kind] ?? defaults[kind];
    if (isUnknown(limit)) continue;
    if (parseDuration(drain) >= parseDuration(limit)) {
      return `must be shorter than timeouts.${kind} (${JSON.stringify(limit)}), the time the provider waits for a suspend, got ${JSON.stringify(drain)}`;
    }
  }
  return undefined;
}

/** The SuspendVCluster request's option fields, as a plan lists them: undefined when unset, unknown while a preview does not know them. */
export type SuspendArgs = Record<keyof Omit<SuspendVClusterInput, "name" | "namespace">, unknown>;

/** The request fields the options ask for, every one named (the plan's arguments). */
export function suspendArgsOf(options: SuspendOptions | undefined): SuspendArgs {
  if ((options as unknown) === UNKNOWN) return { drainWorkloads: UNKNOWN, drainTimeoutSeconds: UNKNOWN, createSnapshot: UNKNOWN, snapshotName: UNKNOWN };
  const o = options ?? {};
  const timeout = o.drainTimeout === undefined || isUnknown(o.drainTimeout) ? o.drainTimeout : parseDuration(o.drainTimeout) / 1000;
  return { drainWorkloads: o.drainWorkloads, drainTimeoutSeconds: timeout, createSnapshot: o.createSnapshot, snapshotName: o.snapshotName };
}

/** The SuspendVCluster request fields the options ask for (known at apply); unset ones are left to the API's zero values. */
export function suspendRequestOf(options: SuspendOptions | undefined): Omit<SuspendVClusterInput, "name" | "namespace"> {
  return Object.fromEntries(Object.entries(suspendArgsOf(options)).filter(([, value]) => value !== undefined)) as Omit<SuspendVClusterInput, "name" | "namespace">;
}

/** What a suspend does, for the plan: the snapshot and the drain before the control plane stops. */
export function suspendSummary(options: SuspendOptions | undefined): string {
  const o = options ?? {};
  const [name, timeout] = [known(o.snapshotName), known(o.drainTimeout)];
  const steps: string[] = [];
  if (o.createSnapshot === true) steps.push(name ? `takes snapshot ${JSON.stringify(name)}` : "takes a snapshot");
  if (o.drainWorkloads === true) steps.push(timeout ? `drains its workloads (a drain over ${timeout} fails the suspend)` : "drains its workloads");
  const suspend = "suspends the vcluster: its workloads stop";
  return steps.length === 0 ? suspend : `${steps.join(", then ")}, then ${suspend}`;
}

import type { VclusterClient } from "../../../clients/vcluster/client";
import type { VClusterRef } from "../../../clients/vcluster/requests";
import type { PhaseName, VClusterState } from "../../../clients/vcluster/types";
import type { Deadline } from "../../../core/deadline";
import { sendUnlessDone } from "../../../core/create-or-adopt";
import { ClusterformError } from "../../../core/errors";
import { deepEqual } from "../../../core/planner";
import { carryOut, oneExecutorFor, type PlannedOperation } from "../../../core/plan/operation";
import { type OperationContext, PartialStateError, type ResourceOperations, withPartialState } from "../../../core/contract";
import { deadlineFor, readDeadline } from "../../fields";
import { findVCluster, isNotFound, keyOf, platformLabels, vclusterClient } from "../common";
import { DRAINING, suspendRefused, waitForGone, waitForPhase, waitForVCluster } from "../wait";
import { createOrAdopt } from "./create";
import { VCLUSTER_CALLS, VCLUSTER_FIELDS, VCLUSTER_TIMEOUTS, VCLUSTER_UPDATE_CALLS, type VClusterInputs } from "./schema";
import { driftOf, outputsOf, refOf, specOf } from "./state";
import { type Step, WAIT_FOR } from "./steps";
import { suspendRequestOf } from "./suspend-options";

type Props = Record<string, unknown>;
type Inputs = VClusterInputs & Props;

/** Runs one step's call; the wait follows in {@link runSteps}. */
const SEND: Readonly<Record<Step["call"], (client: VclusterClient, ref: VClusterRef, news: Inputs, step: Step, deadline: Deadline) => Promise<unknown>>> = {
  [VCLUSTER_CALLS.ResumeVCluster]: (c, ref, _n, _s, deadline) => c.resumeVCluster(ref, { deadline }),
  [VCLUSTER_CALLS.SuspendVCluster]: (c, ref, n, _s, deadline) => c.suspendVCluster({ ...ref, ...suspendRequestOf(n.suspendOptions) }, { deadline }),
  [VCLUSTER_CALLS.ScaleVCluster]: (c, ref, n, _s, deadline) => c.scaleVCluster({ ...ref, replicas: n.replicas ?? 1, resources: n.resources ?? {} }, { deadline }),
  [VCLUSTER_CALLS.UpdateVCluster]: (c, ref, n, s, deadline) =>
    c.updateVCluster({ ...ref, spec: specOf(n), labels: platformLabels(n), updateMask: s.call === VCLUSTER_CALLS.UpdateVCluster ? s.mask : [] }, { deadline }),
};

/**
 * Whether a phase call whose answer was lost has landed, judged from the vcluster read afterwards.
 * These calls are not retried by the client (a retry of one that landed meets the phase it
 * started), so {@link sendStep} reads the vcluster before sending one again.
 */
const LANDED: Readonly<Record<Exclude<Step["call"], typeof VCLUSTER_CALLS.UpdateVCluster>, (s: VClusterState, news: Inputs) => boolean>> = {
  [VCLUSTER_CALLS.ScaleVCluster]: (s, n) =>
    s.phase === "SCALING" || (s.spec.replicas === (n.replicas ?? 1) && (n.resources === undefined || deepEqual(n.resources, pick(s.spec.resources as Props | undefined)))),
  [VCLUSTER_CALLS.ResumeVCluster]: (s) => s.phase === "RESUMING" || s.phase === "RUNNING",
  // A drained suspend is under way while the vcluster still reads RUNNING.
  [VCLUSTER_CALLS.SuspendVCluster]: (s) => s.phase === "SUSPENDED" || s.conditions.some((c) => c.type === "Suspended" && c.reason === DRAINING),
};

/** How each call's wait tells a refusal besides ERROR: a suspend whose drain timed out leaves the vcluster RUNNING. */
const REFUSED: Partial<Readonly<Record<Step["call"], (s: VClusterState) => string | undefined>>> = {
  [VCLUSTER_CALLS.SuspendVCluster]: suspendRefused,
};

/**
 * Sends a step's call. UpdateVCluster is idempotent and retried by the client; a phase call that
 * failed is sent again by the call policy, after a lost answer only if the vcluster shows it did
 * not land.
 */
async function sendStep(client: VclusterClient, ref: VClusterRef, news: Inputs, step: Step, deadline: Deadline): Promise<void> {
  const call = step.call;
  if (call === VCLUSTER_CALLS.UpdateVCluster) {
    await SEND[call](client, ref, news, step, deadline);
    return;
  }
  await sendUnlessDone({
    operation: `${call} vcluster ${JSON.stringify(keyOf(ref))}`,
    deadline,
    send: async () => {
      await SEND[call](client, ref, news, step, deadline);
      return true;
    },
    look: async (lost) => {
      if (!lost) return undefined;
      const live = await findVCluster(client, ref, deadline);
      return live && LANDED[call](live, news) ? true : undefined;
    },
  });
}

/** The input fields a step applies, to record exactly what was done if a later step fails. */
function fieldsOf(step: Step): string[] {
  if (step.call === VCLUSTER_CALLS.ScaleVCluster) return ["replicas", "resources"];
  if (step.call === VCLUSTER_CALLS.UpdateVCluster) return Object.keys(VCLUSTER_FIELDS).filter((f) => step.mask.includes(VCLUSTER_FIELDS[f].maskPath ?? ""));
  return [];
}

/** A planned call as the step it runs: its update mask from the operation's arguments. */
function stepOf(o: PlannedOperation): Step {
  const call = o.call as Step["call"];
  return call === VCLUSTER_CALLS.UpdateVCluster ? { call, mask: (o.args.mask ?? []) as string[], waitFor: WAIT_FOR[call] } : { call, waitFor: WAIT_FOR[call] };
}

/** The inputs a call sends: a scale sends the replicas and resources its operation carries. */
function sentBy(o: PlannedOperation, news: Inputs): Inputs {
  return o.call === VCLUSTER_CALLS.ScaleVCluster ? { ...news, replicas: o.args.replicas as number | undefined, resources: o.args.resources as Inputs["resources"] } : news;
}

/**
 * Carries out the planned calls in order, each followed by a wait for its phase, then (when
 * `settle` is given) a wait for that phase alone. On failure the state records the old inputs
 * plus what the finished calls applied, so the next `up` retries only the rest.
 */
async function runSteps(ctx: OperationContext, id: string, olds: Props, news: Inputs, operations: readonly PlannedOperation[], deadline: Deadline, settle?: PhaseName[]): Promise<void> {
  const client = await vclusterClient(ctx.config);
  const ref = refOf(news);
  const applied: Props = { ...olds };
  const run = async (o: PlannedOperation) => {
    const step = stepOf(o);
    await sendStep(client, ref, sentBy(o, news), step, deadline);
    await waitForPhase(client, ref, step.waitFor, deadline, ctx.report.progress, step.call, REFUSED[step.call]);
    for (const field of fieldsOf(step)) applied[field] = news[field];
    if (step.call === VCLUSTER_CALLS.SuspendVCluster || step.call === VCLUSTER_CALLS.ResumeVCluster) applied.suspended = step.call === VCLUSTER_CALLS.SuspendVCluster;
  };
  try {
    await carryOut<typeof VCLUSTER_UPDATE_CALLS>("vcluster:VCluster", operations, oneExecutorFor(VCLUSTER_UPDATE_CALLS, run));
    if (settle) await waitForPhase(client, ref, settle, deadline, ctx.report.progress);
  } catch (err) {
    const seen = await findVCluster(client, ref, deadline, true).catch(() => undefined);
    throw withPartialState(err, id, { ...applied, ...(seen ? outputsOf(seen, String(olds.kubeconfig ?? "")) : {}), __provider: news.__provider });
  }
}

/** After create or restore: running, then scaled to the inputs if a snapshot said otherwise, then suspended if asked. */
async function settleNew(ctx: OperationContext, news: Inputs, deadline: Deadline): Promise<{ state: VClusterState; kubeconfig: string }> {
  const client = await vclusterClient(ctx.config);
  const ref = refOf(news);
  let state = (await waitForPhase(client, ref, ["RUNNING", "SUSPENDED"], deadline, ctx.report.progress)).state!;
  const wantReplicas = news.replicas ?? state.spec.replicas;
  const scale = state.phase === "RUNNING" && (state.spec.replicas !== wantReplicas || (news.resources !== undefined && !deepEqual(news.resources, pick(state.spec.resources as Props | undefined))));
  if (scale) {
    await sendStep(client, ref, { ...news, replicas: wantReplicas }, { call: VCLUSTER_CALLS.ScaleVCluster, waitFor: ["RUNNING"] }, deadline);
    state = (await waitForPhase(client, ref, ["RUNNING"], deadline, ctx.report.progress)).state!;
  }
  const kubeconfig = state.phase === "RUNNING" ? ((await findVCluster(client, ref, deadline, true))?.kubeconfig ?? "") : "";
  const steps: Step[] =
    news.suspended === true && state.phase === "RUNNING"
      ? [{ call: VCLUSTER_CALLS.SuspendVCluster, waitFor: ["SUSPENDED"] }]
      : news.suspended !== true && state.phase === "SUSPENDED"
        ? [{ call: VCLUSTER_CALLS.ResumeVCluster, waitFor: ["RUNNING"] }]
        : [];
  for (const step of steps) {
    await sendStep(client, ref, news, step, deadline);
    state = (await waitForPhase(client, ref, step.waitFor, deadline, ctx.report.progress, step.call, REFUSED[step.call])).state!;
  }
  return { state, kubeconfig };
}

/** The non-empty fields of a resources message, as the inputs write them. */
function pick(resources: Props | undefined): Props {
  return Object.fromEntries(Object.entries(resources ?? {}).filter(([, v]) => v !== ""));
}

/** vcluster VClusters: see the field table in schema.ts for what each change does. */
export const vclusterOperations: ResourceOperations<VClusterInputs> = {
  async create(ctx, inputs) {
    const deadline = deadlineFor(inputs, "create", VCLUSTER_TIMEOUTS);
    const first = await createOrAdopt(ctx, inputs, deadline);
    try {
      const { state, kubeconfig } = await settleNew(ctx, inputs, deadline);
      return { id: state.id, outs: outputsOf(state, kubeconfig) };
    } catch (err) {
      // The vcluster exists: record it (with __provider, so delete can run) rather than orphan it.
      const seen = await findVCluster((await vclusterClient(ctx.config)), refOf(inputs), deadline, true).catch(() => undefined);
      const message = err instanceof Error ? err.message : String(err);
      // A suspend that did not happen (a drain that timed out) is not recorded: the next run sends it again.
      const notSuspended = inputs.suspended === true && seen !== undefined && seen.phase !== "SUSPENDED" ? { suspended: false } : {};
      throw new PartialStateError(
        `${message}; the vcluster was created and is recorded in the stack: fix the cause and run \`pulumi up\` again, or replace it with \`pulumi up --replace <urn>\``,
        first.id,
        { ...inputs, ...outputsOf(seen ?? first), ...notSuspended },
        [message],
      );
    }
  },

  async read(ctx, _id, props) {
    const live = await findVCluster((await vclusterClient(ctx.config)), refOf(props), readDeadline(props, VCLUSTER_TIMEOUTS), true);
    return live ? { ...outputsOf(live, String(props.kubeconfig ?? "")), ...driftOf(live, props) } : undefined;
  },

  async update(ctx, id, olds, news, plan) {
    const deadline = deadlineFor(news, "update", VCLUSTER_TIMEOUTS);
    // No call at all: the engine retries a create that failed to settle (partial state); wait for
    // the phase the inputs ask for, so a vcluster still in ERROR fails the update again.
    const settle: PhaseName[] | undefined = plan.operations.length > 0 ? undefined : [news.suspended ? "SUSPENDED" : "RUNNING"];
    await runSteps(ctx, id, olds, news, plan.operations, deadline, settle);
    const live = await findVCluster((await vclusterClient(ctx.config)), refOf(news), deadline, true);
    if (!live) throw new ClusterformError({ code: "NotFound", platformCode: "NOT_FOUND", operation: `updating vcluster ${JSON.stringify(`${news.namespace}/${news.name}`)}`, platformMessage: "the vcluster disappeared during the update; run `pulumi refresh`, then `pulumi up`" });
    return outputsOf(live, String(olds.kubeconfig ?? ""));
  },

  async delete(ctx, _id, props) {
    const client = await vclusterClient(ctx.config);
    const ref = refOf(props);
    const deadline = deadlineFor(props, "delete", VCLUSTER_TIMEOUTS);
    try {
      await client.deleteVCluster(ref, { deadline });
    } catch (err) {
      if (isNotFound(err)) return;
      if (!(err instanceof ClusterformError && err.code === "FailedPrecondition")) throw err;
      // Another change is under way (SCALING, RESUMING...): let it finish, then delete.
      await waitForVCluster({
        client, ref, deadline, target: "deletable",
        isDone: (s) => s === undefined || ["RUNNING", "SUSPENDED", "ERROR", "DELETING"].includes(s.phase),
        failure: () => undefined,
        progress: ctx.report.progress,
      });
      await client.deleteVCluster(ref, { deadline }).catch((e: unknown) => {
        if (!isNotFound(e) && !(e instanceof ClusterformError && e.code === "FailedPrecondition")) throw e;
      });
    }
    await waitForGone(client, ref, deadline, ctx.report.progress);
  },
};

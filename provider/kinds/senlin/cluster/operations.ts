import type { SenlinClient } from "../../../clients/senlin/client";
import type { Cluster, ClusterUpdate, ResizeParams } from "../../../clients/senlin/types";
import { resolveUnreachableTimeoutMs } from "../../../core/config";
import type { Deadline } from "../../../core/deadline";
import { createOrAdopt } from "../../../core/create-or-adopt";
import { ClusterformError } from "../../../core/errors";
import { waitFor } from "../../../core/wait";
import { deadlineFor, readDeadline } from "../../fields";
import { type CreateContext, type OperationContext, PartialStateError, type ResourceOperations, withPartialState } from "../../../core/contract";
import { senlinClient } from "../client";
import { type ActionRun, runAction, startAction, waitForAction } from "./actions";
import { bindingMatches, type PolicyChanges, liveBindings, planPolicies } from "./policy-set";
import { actionTimeoutSeconds, CLUSTER_CALLS, CLUSTER_TIMEOUTS, type CLUSTER_UPDATE_CALLS, type ClusterInputs, DEFAULT_TIMEOUT_SECONDS, OWNER_KEY, POLICY_ACTIONS, type PolicyBinding } from "./schema";
import { carryOut, type PlannedOperation } from "../../../core/plan/operation";

type Props = Record<string, unknown>;
type Inputs = ClusterInputs & Props;

const q = JSON.stringify;

/** The outputs create and read record of a cluster. */
export function outputsOf(cluster: Cluster): Props {
  return {
    status: cluster.status,
    statusReason: cluster.statusReason,
    nodeIds: [...cluster.nodes].sort(),
    desiredCapacity: cluster.desiredCapacity,
    profileName: cluster.profileName ?? "",
  };
}

function runFor(ctx: OperationContext, client: SenlinClient, deadline: Deadline): ActionRun {
  return { client, deadline, unreachableMs: resolveUnreachableTimeoutMs(ctx.config), progress: ctx.report.progress };
}

/** The user's metadata plus the owner marker that tells this resource's clusters from same-named ones. */
function metadataOf(inputs: Inputs): Record<string, unknown> {
  return { ...inputs.metadata, [OWNER_KEY]: inputs.owner };
}

/** The cluster this resource created under `name`, found by its owner marker; others of that name are not ours. */
async function findOwned(client: SenlinClient, inputs: Inputs, deadline: Deadline): Promise<Cluster | undefined> {
  const named = await client.listClusters({ filters: { name: inputs.name! } }, { deadline });
  return named.find((c) => c.metadata[OWNER_KEY] === inputs.owner);
}

/** GetCluster, with NotFound as undefined. */
async function findCluster(client: SenlinClient, id: string, deadline: Deadline): Promise<Cluster | undefined> {
  try {
    return await client.getCluster(id, { deadline });
  } catch (err) {
    if (err instanceof ClusterformError && err.code === "NotFound") return undefined;
    throw err;
  }
}

/** Applies a policy plan, recording in `done` each binding as it lands. */
async function applyPolicies(run: ActionRun, id: string, changes: PolicyChanges, done: Map<string, boolean>): Promise<void> {
  const { client, deadline } = run;
  for (const policy of changes.detach) {
    await runAction(run, `DetachPolicy ${q(policy)} from cluster ${q(id)}`, () => client.detachPolicy(id, policy, { deadline }));
    done.delete(policy);
  }
  for (const b of changes.attach) {
    await runAction(run, `AttachPolicy ${q(b.policy)} to cluster ${q(id)}`, () => client.attachPolicy(id, b.policy, b.enabled, { deadline }));
    done.set(b.policy, b.enabled);
  }
  for (const b of changes.update) {
    await runAction(run, `${CLUSTER_CALLS.UpdateClusterPolicy} ${q(b.policy)} on cluster ${q(id)}`, () => client.updateClusterPolicy(id, b.policy, b.enabled, { deadline }));
    done.set(b.policy, b.enabled);
  }
}

const asBindings = (done: Map<string, boolean>): PolicyBinding[] =>
  [...done].map(([policy, enabled]) => ({ policy, enabled })).sort((a, b) => (a.policy < b.policy ? -1 : 1));

/**
 * Reads the cluster after its operations: ERROR fails the step (the cluster stays recorded),
 * WARNING or CRITICAL is reported as a warning on the resource.
 */
async function settle(ctx: OperationContext, client: SenlinClient, id: string, deadline: Deadline): Promise<Props> {
  const cluster = await client.getCluster(id, { deadline });
  if (cluster.status === "ERROR") {
    throw new ClusterformError({
      code: "FailedPrecondition",
      platformCode: "ERROR",
      operation: `cluster ${q(cluster.name)} (${id})`,
      platformMessage: `the cluster is in ERROR: ${cluster.statusReason || "no reason given"}`,
    });
  }
  if (cluster.status === "WARNING" || cluster.status === "CRITICAL") {
    await ctx.report.warn(`cluster ${q(cluster.name)} (${id}) is ${cluster.status}: ${cluster.statusReason || "no reason given"}`);
  }
  return outputsOf(cluster);
}

/** Waits until an adopted cluster's create has finished (its status leaves INIT and CREATING). */
async function waitCreated(run: ActionRun, id: string): Promise<void> {
  await waitFor({
    poll: () => run.client.getCluster(id, { deadline: run.deadline }),
    isDone: (c) => c.status !== "INIT" && c.status !== "CREATING",
    describe: (c) => `status ${c.status}`,
    deadline: run.deadline,
    what: `cluster ${id} to finish creating`,
    unreachableMs: run.unreachableMs,
    progress: run.progress,
  });
}

/** The create request of the inputs, the owner marker in its metadata. */
function createRequestOf(inputs: Inputs) {
  return {
    name: inputs.name!,
    profileId: inputs.profile,
    minSize: inputs.minSize,
    maxSize: inputs.maxSize,
    desiredCapacity: inputs.desiredCapacity,
    timeout: inputs.actionTimeout === undefined ? undefined : actionTimeoutSeconds(inputs.actionTimeout),
    metadata: metadataOf(inputs),
    config: inputs.config,
  };
}

type Accepted = Awaited<ReturnType<SenlinClient["createCluster"]>>;

/**
 * Creates the cluster, or takes the one an interrupted run of this resource (or an earlier send of
 * this create whose answer was lost) created; answers its id. Senlin gives a create no idempotency
 * key and allows duplicate names, so the owner marker is what is looked for before every send.
 */
async function createCluster(ctx: CreateContext, run: ActionRun, inputs: Inputs): Promise<{ id: string; adopted: boolean }> {
  const { client, deadline } = run;
  const operation = `${CLUSTER_CALLS.CreateCluster} cluster ${q(inputs.name)}`;
  // Only a create sent now answers its action; a cluster found (landed or adopted) is waited for apart.
  const { value } = await createOrAdopt<{ id: string; accepted?: Accepted }>(ctx, {
    operation,
    deadline,
    find: async () => {
      const owned = await findOwned(client, inputs, deadline);
      return owned && { id: owned.id };
    },
    send: async () => {
      const accepted = await client.createCluster(createRequestOf(inputs), { deadline });
      return { id: accepted.value.id, accepted };
    },
    identify: (found) => ({ identity: `owner ${inputs.owner}`, id: found.id }),
    target: "the cluster",
  });
  if (!value.accepted) return { id: value.id, adopted: true };
  try {
    await waitForAction(run, operation, value.accepted.actionId);
  } catch (err) {
    throw withPartialState(err, value.id, { ...inputs, policies: [], ...outputsOf(value.accepted.value), status: "ERROR" });
  }
  return { id: value.id, adopted: false };
}

/**
 * The PATCH body of an UpdateCluster's planned arguments (the changed fields among name, profile,
 * actionTimeout (Senlin's `timeout`, in seconds), metadata and config, with `profileOnly` beside a new profile).
 */
function patchOf(args: Props, owner: string): ClusterUpdate {
  const update: ClusterUpdate = {};
  if ("name" in args) update.name = String(args.name);
  if ("profile" in args) {
    update.profileId = String(args.profile);
    if (args.profileOnly === true) update.profileOnly = true;
  }
  if ("actionTimeout" in args) update.timeout = args.actionTimeout === undefined ? DEFAULT_TIMEOUT_SECONDS : actionTimeoutSeconds(String(args.actionTimeout));
  if ("metadata" in args) update.metadata = { ...(args.metadata as Props | undefined), [OWNER_KEY]: owner };
  if ("config" in args) update.config = (args.config as Record<string, unknown> | undefined) ?? {};
  return update;
}

/**
 * The planned PATCH without its profile when the cluster already has that profile (the program may
 * name by id the profile an import recorded by name): Senlin refuses an update to the profile a
 * cluster has. Reads the cluster only when the PATCH carries a profile.
 */
async function withoutCurrentProfile(client: SenlinClient, id: string, args: Props, deadline: Deadline): Promise<Props> {
  if (!("profile" in args)) return args;
  const cluster = await client.getCluster(id, { deadline });
  const reference = String(args.profile);
  const current = cluster.profileId === reference || cluster.profileName === reference || (reference.length >= 4 && cluster.profileId.startsWith(reference));
  if (!current) return args;
  const { profile: _profile, profileOnly: _only, ...rest } = args;
  return rest;
}

/**
 * The resize a planned ResizeCluster sends: the program's size (EXACT_CAPACITY, strict), or new
 * bounds alone with `strict: false` when Senlin owns the size (plan.ts), as its arguments say.
 */
function resizeParamsOf(args: Props): ResizeParams {
  const { adjustmentType, number, minSize, maxSize, strict } = args as { adjustmentType?: "EXACT_CAPACITY"; number?: number; minSize: number; maxSize: number; strict?: boolean };
  const capacity = adjustmentType === undefined ? {} : { adjustmentType, number };
  return { ...capacity, minSize, maxSize, strict: strict ?? true };
}

const PATCHED = ["name", "profile", "actionTimeout", "metadata", "config", "profileOnly"] as const;
const RESIZED = ["minSize", "maxSize", "desiredCapacity"] as const;
const pick = (from: Props, keys: readonly string[]): Props => Object.fromEntries(keys.map((k) => [k, from[k]]));

/** Senlin clusters: every change in place, every action waited for through its Location. */
export const clusterOperations: ResourceOperations<ClusterInputs> = {
  async create(ctx, inputs) {
    const client = await senlinClient(ctx.config);
    const run = runFor(ctx, client, deadlineFor(inputs, "create", CLUSTER_TIMEOUTS));
    const { id, adopted } = await createCluster(ctx, run, inputs);
    const done = new Map<string, boolean>();
    try {
      if (adopted) await waitCreated(run, id);
      // `complete` filled in every `enabled`.
      const wanted = (inputs.policies ?? []) as PolicyBinding[];
      const current = adopted ? liveBindings(await client.listClusterPolicies(id, undefined, { deadline: run.deadline }), wanted) : [];
      for (const b of current) done.set(b.policy, b.enabled);
      await applyPolicies(run, id, planPolicies(current, wanted), done);
      return { id, outs: await settle(ctx, client, id, run.deadline) };
    } catch (err) {
      const seen = await findCluster(client, id, run.deadline).catch(() => undefined);
      const message = err instanceof Error ? err.message : String(err);
      throw new PartialStateError(
        `${message}; the cluster was created and is recorded in the stack: fix the cause and run \`pulumi up\` again, or replace it with \`pulumi up --replace <urn>\``,
        id,
        { ...inputs, policies: asBindings(done), ...(seen ? outputsOf(seen) : { status: "UNKNOWN" }) },
        [message],
      );
    }
  },

  async read(ctx, id, props) {
    const client = await senlinClient(ctx.config);
    const deadline = readDeadline(props, CLUSTER_TIMEOUTS);
    const cluster = await findCluster(client, id, deadline);
    if (!cluster) return undefined;
    // The recorded bindings as the cluster has them now: one detached (or disabled) out of band
    // shows as drift, so the next up attaches it again rather than detaching what is gone.
    const recorded = (props.policies ?? []) as PolicyBinding[];
    if (recorded.length === 0) return outputsOf(cluster);
    return { ...outputsOf(cluster), policies: liveBindings(await client.listClusterPolicies(id, undefined, { deadline }), recorded) };
  },

  async update(ctx, id, olds, news, plan) {
    const client = await senlinClient(ctx.config);
    const run = runFor(ctx, client, deadlineFor(news, "update", CLUSTER_TIMEOUTS));
    const { deadline } = run;
    // What the stack records if a step fails: the old inputs with every step that landed.
    let applied: Props = { ...olds };
    const done = new Map(((olds.policies ?? []) as PolicyBinding[]).map((b) => [b.policy, b.enabled]));
    const policy = (o: PlannedOperation) => ({ policy: String(o.args.policy), enabled: o.args.enabled !== false });
    try {
      // The bindings as the cluster has them now. A planned policy call that the live bindings make a
      // no-op is not sent: a policy detached out of band since the state was written is not detached
      // again (Senlin refuses that), and one the state names by name while the program names it by
      // id (after an import) is neither detached nor attached again.
      const wanted = (news.policies ?? []) as PolicyBinding[];
      const policyCalls = plan.operations.some((o) => POLICY_ACTIONS.calls.some((call) => call === o.call));
      const live = policyCalls ? await client.listClusterPolicies(id, undefined, { deadline }) : [];
      if (policyCalls) {
        const references = [...asBindings(done), ...wanted];
        done.clear();
        for (const b of liveBindings(live, references)) done.set(b.policy, b.enabled);
      }
      const boundAs = (reference: string) => live.find((b) => bindingMatches(b, reference));
      // The planned calls (the preview's report shows the same list), in its order, each sending its arguments.
      await carryOut<typeof CLUSTER_UPDATE_CALLS>("senlin:Cluster", plan.operations, {
        async [CLUSTER_CALLS.UpdateCluster](o) {
          const args = await withoutCurrentProfile(client, id, o.args, deadline);
          if (Object.keys(args).length > 0) {
            await runAction(run, `${CLUSTER_CALLS.UpdateCluster} cluster ${q(id)}`, async () => (await client.updateCluster(id, patchOf(args, news.owner), { deadline })).actionId);
          }
          applied = { ...applied, ...pick(news, PATCHED) };
        },
        async [CLUSTER_CALLS.ResizeCluster](o) {
          await runAction(run, `${CLUSTER_CALLS.ResizeCluster} cluster ${q(id)}`, () => client.resizeCluster(id, resizeParamsOf(o.args), { deadline }));
          applied = { ...applied, ...pick(news, RESIZED) };
        },
        [CLUSTER_CALLS.DetachClusterPolicy]: async (o) => {
          const bound = boundAs(String(o.args.policy));
          const stillWanted = bound !== undefined && wanted.some((w) => bindingMatches(bound, w.policy));
          if (bound && !stillWanted) await applyPolicies(run, id, { detach: [String(o.args.policy)], attach: [], update: [] }, done);
          else done.delete(String(o.args.policy));
        },
        [CLUSTER_CALLS.AttachClusterPolicy]: async (o) => {
          const bound = boundAs(String(o.args.policy));
          if (!bound) return applyPolicies(run, id, { detach: [], attach: [policy(o)], update: [] }, done);
          done.set(String(o.args.policy), bound.enabled);
          if (bound.enabled !== policy(o).enabled) await applyPolicies(run, id, { detach: [], attach: [], update: [policy(o)] }, done);
        },
        [CLUSTER_CALLS.UpdateClusterPolicy]: (o) => applyPolicies(run, id, { detach: [], attach: [], update: [policy(o)] }, done),
      });
      return await settle(ctx, client, id, run.deadline);
    } catch (err) {
      const seen = await findCluster(client, id, run.deadline).catch(() => undefined);
      // Senlin sets desired_capacity when a resize starts, even one that then fails: the state keeps
      // the capacity last reached, so the next `up` plans the resize again.
      const live = seen ? { ...outputsOf(seen), desiredCapacity: applied.desiredCapacity } : {};
      throw withPartialState(err, id, { ...applied, ...live, policies: asBindings(done), __provider: news.__provider });
    }
  },

  async delete(ctx, id, props) {
    const client = await senlinClient(ctx.config);
    const run = runFor(ctx, client, deadlineFor(props, "delete", CLUSTER_TIMEOUTS));
    if (!(await findCluster(client, id, run.deadline))) return;
    await detachAll(run, id);
    let actionId: string;
    try {
      actionId = await startAction(run, `${CLUSTER_CALLS.DeleteCluster} cluster ${q(id)}`, async () => {
        try {
          return (await client.deleteCluster(id, {}, { deadline: run.deadline })).actionId;
        } catch (err) {
          // Someone attached a policy since: detach it too, then delete.
          if (!(err instanceof ClusterformError && err.code === "Conflict" && /polic/i.test(err.platformMessage))) throw err;
          await detachAll(run, id);
          return (await client.deleteCluster(id, {}, { deadline: run.deadline })).actionId;
        }
      });
    } catch (err) {
      if (err instanceof ClusterformError && err.code === "NotFound") return;
      throw err;
    }
    if (actionId) await waitForAction(run, `${CLUSTER_CALLS.DeleteCluster} cluster ${q(id)}`, actionId);
    await waitFor({
      poll: () => findCluster(client, id, run.deadline),
      isDone: (c) => c === undefined,
      describe: (c) => (c ? `status ${c.status}` : "gone"),
      deadline: run.deadline,
      what: `cluster ${id} to be deleted`,
      unreachableMs: run.unreachableMs,
      progress: run.progress,
    });
  },
};

/** Detaches every policy the cluster has: Senlin refuses to delete a cluster with policies attached. */
async function detachAll(run: ActionRun, id: string): Promise<void> {
  const bindings = await run.client.listClusterPolicies(id, undefined, { deadline: run.deadline });
  for (const b of bindings) {
    await runAction(run, `DetachPolicy ${q(b.policyName || b.policyId)} from cluster ${q(id)}`, () =>
      run.client.detachPolicy(id, b.policyId, { deadline: run.deadline }),
    );
  }
}

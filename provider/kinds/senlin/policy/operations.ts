import type { SenlinClient } from "../../../clients/senlin/client";
import type { Policy, TypedSpec } from "../../../clients/senlin/types";
import type { Deadline } from "../../../core/deadline";
import { deadlineFor, readDeadline } from "../../fields";
import type { ResourceOperations } from "../../../core/contract";
import { createOrAdopt } from "../../../core/create-or-adopt";
import { deleteUnlessGone, leftoverAmong, orMissing, patchUnlessDone } from "../catalog-ops";
import { senlinClient } from "../client";
import { sameSpec } from "../typed-spec";
import { POLICY_CALLS, POLICY_TIMEOUTS, type POLICY_UPDATE_CALLS, type PolicyInputs } from "./schema";
import { carryOut } from "../../../core/plan/operation";

type Props = Record<string, unknown>;
type Inputs = PolicyInputs & Props;

const q = JSON.stringify;

/** The outputs create and read record of a policy. */
export function policyOutputsOf(policy: Policy): Props {
  return { policyType: policy.type };
}

/**
 * A policy an interrupted create of this resource left: its name and spec (a derived name holds a
 * hash of the owner, so no other resource derives it), attached to no cluster (an attached one is
 * recorded in a state: see leftoverAmong in catalog-ops.ts).
 */
async function findLeftover(client: SenlinClient, inputs: Inputs, deadline: Deadline, adoptInUse: boolean): Promise<Policy | undefined> {
  const named = await client.listPolicies({ filters: { name: inputs.name! } }, { deadline });
  const same = named.filter((p) => sameSpec(p.spec, inputs.spec));
  if (same.length === 0) return undefined;
  return leftoverAmong(same, await attachedPolicies(client, deadline), adoptInUse);
}

/**
 * The ids of the policies attached to any cluster, from each cluster's bindings
 * (GET /v1/clusters/{id}/policies): a cluster's own `policies` list holds binding ids on Senlin, not
 * policy ids. One call per cluster, made only when a policy of the same name and spec exists.
 */
async function attachedPolicies(client: SenlinClient, deadline: Deadline): Promise<Set<string>> {
  const clusters = await client.listClusters(undefined, { deadline });
  const bindings = await Promise.all(clusters.map((c) => client.listClusterPolicies(c.id, undefined, { deadline })));
  return new Set(bindings.flat().map((b) => b.policyId));
}

/** Senlin policies: created once, renamed in place, deleted when no cluster has them attached. */
export const policyOperations: ResourceOperations<PolicyInputs> = {
  async create(ctx, inputs) {
    const client = await senlinClient(ctx.config);
    const deadline = deadlineFor(inputs, "create", POLICY_TIMEOUTS);
    const operation = `${POLICY_CALLS.CreatePolicy} policy ${q(inputs.name)}`;
    const { value: policy } = await createOrAdopt(ctx, {
      operation,
      deadline,
      find: () => findLeftover(client, inputs, deadline, ctx.adoptInUse),
      send: () => client.createPolicy(inputs.name!, inputs.spec as TypedSpec, { deadline }),
      identify: (found) => ({ identity: inputs.owner, id: found.id }),
      adoption: "self",
      target: "the policy",
    });
    return { id: policy.id, outs: policyOutputsOf(policy) };
  },

  async read(ctx, id, props) {
    const client = await senlinClient(ctx.config);
    const policy = await orMissing(() => client.getPolicy(id, { deadline: readDeadline(props, POLICY_TIMEOUTS) }));
    return policy ? policyOutputsOf(policy) : undefined;
  },

  async update(ctx, id, _olds, news, plan) {
    const client = await senlinClient(ctx.config);
    const deadline = deadlineFor(news, "update", POLICY_TIMEOUTS);
    let policy: Policy | undefined;
    // The name is the only field updated in place; Senlin refuses a PATCH that changes nothing, so none is planned then.
    await carryOut<typeof POLICY_UPDATE_CALLS>("senlin:Policy", plan.operations, {
      async [POLICY_CALLS.UpdatePolicy](o) {
        policy = await patchUnlessDone(ctx, `${o.call} policy ${q(id)}`, deadline, () => client.updatePolicy(id, { name: String(o.args.name) }, { deadline }));
      },
    });
    return policyOutputsOf(policy ?? (await client.getPolicy(id, { deadline })));
  },

  async delete(ctx, id, props) {
    const client = await senlinClient(ctx.config);
    const deadline = deadlineFor(props, "delete", POLICY_TIMEOUTS);
    await deleteUnlessGone("policy", "a cluster has it attached", () => client.deletePolicy(id, { deadline }));
  },
};

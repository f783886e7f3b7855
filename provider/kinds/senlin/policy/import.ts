import { readDeadline } from "../../fields";
import type { ImportDefinition, OperationContext, Props } from "../../../core/contract";
import { orMissing, senlinFilters } from "../catalog-ops";
import { senlinClient } from "../client";
import { SENLIN_ID } from "../profile/import";
import { policyOutputsOf } from "./operations";
import { POLICY_TIMEOUTS } from "./schema";

/** Import of `senlin:Policy` by its Senlin id (a UUID): Senlin reports both inputs, the name and the spec. */
export const policyImport: ImportDefinition = {
  platform: "senlin",
  idPattern: SENLIN_ID,
  async read(ctx, id) {
    const client = await senlinClient(ctx.config);
    const policy = await orMissing(() => client.getPolicy(id, { deadline: readDeadline({}, POLICY_TIMEOUTS) }));
    if (!policy) return undefined;
    return { inputs: { name: policy.name, spec: policy.spec }, outputs: policyOutputsOf(policy) };
  },
};

/** The project's policies matching Senlin's `name` and `type` filters (one GET /v1/policies), for `getPolicies`. */
export async function listPolicies(ctx: OperationContext, args: Props): Promise<Props[]> {
  const policies = await (await senlinClient(ctx.config)).listPolicies({ filters: senlinFilters(args, ["name", "type"]) }, { deadline: readDeadline({}, POLICY_TIMEOUTS) });
  return policies.map((p) => ({ id: p.id, name: p.name, spec: p.spec, ...policyOutputsOf(p) }));
}

/** The installed policy types (one GET /v1/policy-types), for `getPolicyTypes`. */
export async function policyTypes(ctx: OperationContext): Promise<Props> {
  return { types: await (await senlinClient(ctx.config)).listPolicyTypes({ deadline: readDeadline({}, POLICY_TIMEOUTS) }) };
}

import { readDeadline } from "../../fields";
import type { ImportDefinition } from "../../../core/contract";
import { orMissing } from "../catalog-ops";
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

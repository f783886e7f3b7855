import { readDeadline } from "../../fields";
import { defineImport } from "../../import-kit";
import { orMissing } from "../catalog-ops";
import { senlinClient } from "../client";
import { SENLIN_ID } from "../profile/import";
import { policyHandler } from ".";
import { policyOutputsOf } from "./operations";
import { POLICY_TIMEOUTS } from "./schema";

/** Import of `senlin:Policy` by its Senlin id (a UUID): Senlin reports both inputs, the name and the spec. */
export const policyImport = defineImport(policyHandler, {
  kind: "senlin:Policy",
  platform: "senlin",
  idPattern: SENLIN_ID,
  idShape: "the Senlin policy id (a UUID, as `openstack cluster policy show` prints it)",
  idExample: "7c3d9e2f-1a4b-4c5d-9e6f-0a1b2c3d4e5f",
  unreported: [],
  async read(ctx, id) {
    const client = await senlinClient(ctx.config);
    const policy = await orMissing(() => client.getPolicy(id, { deadline: readDeadline({}, POLICY_TIMEOUTS) }));
    if (!policy) return undefined;
    return { inputs: { name: policy.name, spec: policy.spec }, outputs: policyOutputsOf(policy) };
  },
});

import type { Lookup } from "../../../core/definition/lookup";
import { filter, installedTypes, senlinList, senlinObject } from "../lookups";
import { policyKind } from "./schema";

const reads = () => import("./import");

/** `senlin:Policy`'s lookups: one policy by id, the project's policies with Senlin's filters, and the installed policy types. */
export const policyLookups: readonly Lookup[] = [
  senlinObject(policyKind, "policy", "Reads a Senlin policy by id without managing it: its name, spec and type (GET /v1/policies/{id})."),
  senlinList(policyKind, {
    name: "getPolicies",
    description: "Lists the project's Senlin policies with Senlin's own filters (GET /v1/policies?name=&type=), each with what `getPolicy` reports.",
    args: {
      name: filter("Only policies of this name (Senlin names need not be unique)."),
      type: filter("Only policies of this type, `<type>-<version>` (e.g. `senlin.policy.scaling-1.0`)."),
    },
    items: "policies",
    fields: ["name", "spec", "policyType"],
    read: async () => (await reads()).listPolicies,
  }),
  installedTypes("policy", async () => (await reads()).policyTypes),
];

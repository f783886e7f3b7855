import { isUnknown, UNKNOWN } from "../../../core/validation";
import { completeName } from "../../fields";
import { defineKind, type Kind } from "../../../core/definition/kind";
import { clusterLookups } from "./lookups";
import { clusterPlanner } from "./plan";
import { type ClusterInputs, clusterKind, type PolicyBinding } from "./schema";

type Props = Record<string, unknown>;

/** Senlin names must start with a letter; a derived name from a resource name like `1st` gets a prefix. */
function startWithLetter(inputs: ClusterInputs & Props): ClusterInputs & Props {
  const { name } = inputs;
  if (!inputs.autoNamed || typeof name !== "string" || isUnknown(name) || /^[A-Za-z]/.test(name)) return inputs;
  return { ...inputs, name: `cluster-${name}` };
}

/** Policies as a set: each with `enabled` filled in, sorted by policy, so order never plans a change. */
function normalizePolicies(policies: ClusterInputs["policies"]): ClusterInputs["policies"] {
  if (!Array.isArray(policies)) return policies;
  const filled = policies.map((p) => ((p as unknown) === UNKNOWN ? p : { ...p, enabled: p.enabled ?? true })) as PolicyBinding[];
  if (filled.some((p) => isUnknown(p) || isUnknown(p.policy))) return filled;
  return [...filled].sort((a, b) => (a.policy < b.policy ? -1 : a.policy > b.policy ? 1 : 0));
}

/**
 * Fills what the user left out: a name derived from the resource name (stable for this resource:
 * Senlin changes names in place, so no field seeds it: only the owner does), `desiredCapacity` from
 * `minSize`, and the policy set in a canonical order.
 */
function complete(olds: Props, news: ClusterInputs & Props, kind: Kind): ClusterInputs & Props {
  const named = startWithLetter(completeName(olds, news, kind));
  const desiredCapacity = named.desiredCapacity ?? (isUnknown(named.minSize) ? (UNKNOWN as unknown as number) : named.minSize);
  const policies = normalizePolicies(named.policies);
  return { ...named, desiredCapacity, ...(policies === undefined ? {} : { policies }) };
}

/** `senlin:Cluster`: its fields (schema.ts), identity, planner, operations and import. */
export const senlinCluster = defineKind(clusterKind, {
  complete,
  // Senlin names are not unique: a cluster is this resource's when its metadata carries the owner marker.
  identity: (inputs) => (typeof inputs.owner === "string" && inputs.owner !== "" ? `owner ${inputs.owner}` : undefined),
  planner: clusterPlanner,
  operations: async () => (await import("./operations")).clusterOperations,
  importer: async () => (await import("./import")).clusterImport,
  lookups: clusterLookups,
});

import type { Cluster } from "../../../clients/senlin/types";
import type { ImportDefinition, OperationContext } from "../../../core/contract";
import { readDeadline } from "../../fields";
import { ClusterformError } from "../../../core/errors";
import { senlinFilters } from "../catalog-ops";
import { senlinClient } from "../client";
import { outputsOf } from "./operations";
import { actionTimeoutOf, CLUSTER_TIMEOUTS, DEFAULT_TIMEOUT_SECONDS, OWNER_KEY } from "./schema";

type Props = Record<string, unknown>;

/** The object without the ownership marker, or undefined when nothing else is left. */
function userMetadata(metadata: Props): Props | undefined {
  const { [OWNER_KEY]: _owner, ...rest } = metadata;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

const nonEmpty = (value: Props): Props | undefined => (Object.keys(value).length > 0 ? value : undefined);

/**
 * Import of `senlin:Cluster` by its Senlin id (a UUID), the id create records. Senlin reports every
 * input: the name, the profile (by name), the size bounds and capacity, the action timeout (left
 * out when it is Senlin's default), metadata without Clusterform's owner marker, config, and the
 * attached policies (by name) with their `enabled`. `profileOnly` is how a profile change is carried
 * out, not a state: it is never reported.
 */
export const clusterImport: ImportDefinition = {
  platform: "senlin",
  idPattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  async read(ctx, id) {
    const client = await senlinClient(ctx.config);
    const deadline = readDeadline({}, CLUSTER_TIMEOUTS);
    let cluster: Awaited<ReturnType<typeof client.getCluster>>;
    try {
      cluster = await client.getCluster(id, { deadline });
    } catch (err) {
      if (err instanceof ClusterformError && err.code === "NotFound") return undefined;
      throw err;
    }
    const bindings = await client.listClusterPolicies(id, undefined, { deadline });
    const policies = bindings.map((b) => ({ policy: b.policyName || b.policyId, enabled: b.enabled }));
    return { inputs: inputsOf(cluster, policies), outputs: outputsOf(cluster) };
  },
};

/** The inputs a Senlin cluster reports; `policies` are its bindings' (another call), absent when not read. */
function inputsOf(cluster: Cluster, policies?: readonly { policy: string; enabled: boolean }[]): Props {
  const inputs: Props = {
    name: cluster.name,
    profile: cluster.profileName ?? cluster.profileId,
    minSize: cluster.minSize,
    maxSize: cluster.maxSize,
    desiredCapacity: cluster.desiredCapacity,
    actionTimeout: cluster.timeout === DEFAULT_TIMEOUT_SECONDS ? undefined : actionTimeoutOf(cluster.timeout),
    metadata: userMetadata(cluster.metadata),
    config: nonEmpty(cluster.config),
    policies: policies && policies.length > 0 ? policies : undefined,
  };
  return Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined));
}

/**
 * The clusters of the project matching the filters (one GET /v1/clusters with Senlin's own `name`
 * and `status` filters), for `getClusters`: each with what the list reports (attached policies are
 * another call per cluster, so they are left out).
 */
export async function listClusters(ctx: OperationContext, args: Props): Promise<Props[]> {
  const clusters = await (await senlinClient(ctx.config)).listClusters({ filters: senlinFilters(args, ["name", "status"]) }, { deadline: readDeadline({}, CLUSTER_TIMEOUTS) });
  return clusters.map((c) => ({ id: c.id, ...inputsOf(c), ...outputsOf(c) }));
}

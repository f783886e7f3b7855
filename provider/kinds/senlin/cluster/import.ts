import type { ImportDefinition } from "../../../core/contract";
import { readDeadline } from "../../fields";
import { ClusterformError } from "../../../core/errors";
import { senlinClient } from "../client";
import { outputsOf } from "./operations";
import { CLUSTER_TIMEOUTS, DEFAULT_TIMEOUT_SECONDS, OWNER_KEY } from "./schema";

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
    const inputs: Props = {
      name: cluster.name,
      profile: cluster.profileName ?? cluster.profileId,
      minSize: cluster.minSize,
      maxSize: cluster.maxSize,
      desiredCapacity: cluster.desiredCapacity,
      timeout: cluster.timeout === DEFAULT_TIMEOUT_SECONDS ? undefined : cluster.timeout,
      metadata: userMetadata(cluster.metadata),
      config: nonEmpty(cluster.config),
      policies: policies.length > 0 ? policies : undefined,
    };
    return { inputs: Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined)), outputs: outputsOf(cluster) };
  },
};

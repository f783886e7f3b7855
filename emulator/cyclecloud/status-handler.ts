import { createHash } from "node:crypto";
import { availabilityOf, type Capacity, measureCapacity, tallyOf } from "./capacity";
import { type CycleCloudEnv, invalidInput, loadCluster, type RestCall, type RestReply } from "./context";
import type { BucketDefinition, ClusterDefinition, NodearrayDefinition } from "./definitions";
import { machineTypeOf } from "./machine-types";
import { toNodeRecord } from "./node-record";
import type { NodeRow } from "./store";

/** A bucket id that stays the same for a bucket as long as its cluster exists: derived from its names. */
export function bucketIdOf(cluster: string, nodearray: string, machineType: string): string {
  const hex = createHash("sha1").update(`${cluster}/${nodearray}/${machineType}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The nodearray's own attributes, as a node record. */
function nodearrayRecord(cluster: ClusterDefinition, nodearray: NodearrayDefinition): Record<string, unknown> {
  return {
    Configuration: {},
    ...nodearray.attributes,
    Name: nodearray.name,
    ClusterName: cluster.name,
    MachineType: nodearray.buckets.map((b) => b.machineType).join(","),
    Region: nodearray.region,
    Interruptible: nodearray.spot,
    ShutdownPolicy: nodearray.shutdownPolicy,
    Fixed: nodearray.fixed,
    Azure: { MaxScalesetSize: nodearray.maxPlacementGroupSize },
  };
}

interface BucketContext {
  env: CycleCloudEnv;
  cluster: ClusterDefinition;
  nodearray: NodearrayDefinition;
  capacity: Capacity;
  /** Every node of the cluster ever created, for the last capacity failure. */
  history: readonly NodeRow[];
  withNodes: boolean;
}

function lastCapacityFailureSeconds(ctx: BucketContext, bucket: BucketDefinition): number {
  const failures = ctx.history
    .filter((n) => n.nodearray === ctx.nodearray.name && n.machineType === bucket.machineType && n.failedMs !== undefined)
    .map((n) => n.failedMs!);
  return failures.length === 0 ? -1 : (ctx.env.clock.now() - Math.max(...failures)) / 1000;
}

function bucketStatus(ctx: BucketContext, bucket: BucketDefinition): Record<string, unknown> {
  const { cluster, nodearray, capacity } = ctx;
  const type = machineTypeOf(bucket.machineType);
  const vcpus = type.vcpuCount;
  const active = tallyOf(capacity.byBucket, `${nodearray.name}/${bucket.machineType}`);
  const { availableCount, maxCount } = availabilityOf(cluster, nodearray, bucket, capacity);
  const consumed = capacity.byFamily.get(`${type.family}/${nodearray.region}`) ?? 0;
  const prefix = `${nodearray.name}/${bucket.machineType}/`;
  const placementGroups = [...capacity.byPlacementGroup.entries()]
    .filter(([key]) => key.startsWith(prefix))
    .map(([key, tally]) => ({ name: key.slice(prefix.length), activeCount: tally.count, activeCoreCount: tally.cores }));
  return {
    bucketId: bucketIdOf(cluster.name, nodearray.name, bucket.machineType),
    definition: { machineType: bucket.machineType },
    maxCount,
    maxCoreCount: maxCount * vcpus,
    activeCount: active.count,
    activeCoreCount: active.cores,
    ...(ctx.withNodes ? { activeNodes: active.names } : {}),
    availableCount,
    availableCoreCount: availableCount * vcpus,
    quotaCount: bucket.quota,
    quotaCoreCount: bucket.quota * vcpus,
    familyQuotaCount: bucket.quota,
    familyQuotaCoreCount: bucket.quota * vcpus,
    consumedCoreCount: consumed,
    familyConsumedCoreCount: consumed,
    maxPlacementGroupSize: nodearray.maxPlacementGroupSize,
    maxPlacementGroupCoreSize: nodearray.maxPlacementGroupSize * vcpus,
    placementGroups,
    valid: true,
    invalidReason: "",
    lastCapacityFailure: lastCapacityFailureSeconds(ctx, bucket),
    virtualMachine: {
      vcpuCount: vcpus,
      pcpuCount: type.pcpuCount,
      gpuCount: type.gpuCount,
      memory: type.memoryGb,
      infiniband: type.infiniband,
      vcpuQuotaCount: vcpus,
    },
  };
}

const BOOLEAN_QUERY: Readonly<Record<string, boolean>> = { true: true, false: false };

/**
 * GET /clusters/{cluster}/status: the cluster's limits and, per nodearray, each bucket's counts.
 * The cluster's `maxCount`/`maxCoreCount` are what may still be added (its limit minus what is in
 * use); a nodearray's and a bucket's are their limits.
 */
export function getClusterStatus(env: CycleCloudEnv, call: RestCall): RestReply {
  const cluster = loadCluster(env, call.params[0]);
  const raw = call.query.get("nodes") ?? "false";
  const withNodes = BOOLEAN_QUERY[raw];
  if (withNodes === undefined) throw invalidInput(`invalid query parameter "nodes": got "${raw}", allowed: true, false`);
  const now = env.clock.now();
  const all = env.store.listNodes();
  const capacity = measureCapacity(env.store.listClusters(), cluster.name, all, now);
  const history = env.store.listNodesEver(cluster.name);
  const nodearrays = cluster.nodearrays.map((nodearray) => {
    const ctx: BucketContext = { env, cluster, nodearray, capacity, history, withNodes };
    return {
      name: nodearray.name,
      maxCount: nodearray.maxCount,
      maxCoreCount: nodearray.maxCoreCount,
      nodearray: nodearrayRecord(cluster, nodearray),
      buckets: nodearray.buckets.map((b) => bucketStatus(ctx, b)),
    };
  });
  const body: Record<string, unknown> = {
    state: "Started",
    targetState: "Started",
    maxCount: Math.max(0, cluster.maxCount - capacity.cluster.count),
    maxCoreCount: Math.max(0, cluster.maxCoreCount - capacity.cluster.cores),
    nodearrays,
  };
  if (withNodes) body.nodes = all.filter((n) => n.cluster === cluster.name).map((n) => toNodeRecord(cluster, n, now));
  return { status: 200, body };
}

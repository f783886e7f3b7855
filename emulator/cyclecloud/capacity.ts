import type { BucketDefinition, ClusterDefinition, NodearrayDefinition } from "./definitions";
import { ACTIVE_STATES } from "./lifecycle";
import { machineTypeOf } from "./machine-types";
import { currentState } from "./settle";
import type { NodeRow } from "./store";

/** Nodes and cores in use. */
export interface Tally {
  count: number;
  cores: number;
  /** Names of the nodes counted. */
  names: string[];
}

/** What the active nodes (those holding or acquiring a VM) use, at every level that has a limit. */
export interface Capacity {
  cluster: Tally;
  byNodearray: Map<string, Tally>;
  /** Keyed by `nodearray/machineType`. */
  byBucket: Map<string, Tally>;
  /** Keyed by `nodearray/machineType/placementGroup`. */
  byPlacementGroup: Map<string, Tally>;
  /** Cores in use per `family/region` across every cluster. */
  byFamily: Map<string, number>;
}

const emptyTally = (): Tally => ({ count: 0, cores: 0, names: [] });

function add(map: Map<string, Tally>, key: string, node: NodeRow, cores: number): void {
  const tally = map.get(key) ?? emptyTally();
  tally.count += 1;
  tally.cores += cores;
  tally.names.push(node.name);
  map.set(key, tally);
}

/** Tallies the active nodes of `cluster` at `nowMs`; `allNodes` spans every cluster (for family consumption). */
export function measureCapacity(clusters: readonly ClusterDefinition[], cluster: string, allNodes: readonly NodeRow[], nowMs: number): Capacity {
  const capacity: Capacity = { cluster: emptyTally(), byNodearray: new Map(), byBucket: new Map(), byPlacementGroup: new Map(), byFamily: new Map() };
  const regions = new Map(clusters.flatMap((c) => c.nodearrays.map((n) => [`${c.name}/${n.name}`, n.region] as const)));
  for (const node of allNodes) {
    if (!ACTIVE_STATES.has(currentState(node, nowMs))) continue;
    const type = machineTypeOf(node.machineType);
    const familyKey = `${type.family}/${regions.get(`${node.cluster}/${node.nodearray}`) ?? ""}`;
    capacity.byFamily.set(familyKey, (capacity.byFamily.get(familyKey) ?? 0) + type.vcpuCount);
    if (node.cluster !== cluster) continue;
    capacity.cluster.count += 1;
    capacity.cluster.cores += type.vcpuCount;
    capacity.cluster.names.push(node.name);
    add(capacity.byNodearray, node.nodearray, node, type.vcpuCount);
    add(capacity.byBucket, `${node.nodearray}/${node.machineType}`, node, type.vcpuCount);
    if (node.placementGroup !== "") add(capacity.byPlacementGroup, `${node.nodearray}/${node.machineType}/${node.placementGroup}`, node, type.vcpuCount);
  }
  return capacity;
}

/** The tally of a bucket, nodearray or placement group; zero when nothing is active. */
export function tallyOf(map: Map<string, Tally>, key: string): Tally {
  return map.get(key) ?? emptyTally();
}

/** One limit on how many more nodes a bucket may take, and how to explain it. */
interface Limit {
  /** Nodes the limit allows in all. */
  max: number;
  /** Nodes it still allows. */
  remaining: number;
  reason: string;
}

function limitsOf(cluster: ClusterDefinition, nodearray: NodearrayDefinition, bucket: BucketDefinition, capacity: Capacity, placementGroup: string): Limit[] {
  const vcpus = machineTypeOf(bucket.machineType).vcpuCount;
  const na = tallyOf(capacity.byNodearray, nodearray.name);
  const inBucket = tallyOf(capacity.byBucket, `${nodearray.name}/${bucket.machineType}`);
  const limits: Limit[] = [
    { max: bucket.quota, remaining: bucket.quota - inBucket.count, reason: `the quota of ${bucket.machineType} in nodearray "${nodearray.name}" is ${bucket.quota} nodes and ${inBucket.count} are in use` },
    { max: nodearray.maxCount, remaining: nodearray.maxCount - na.count, reason: `nodearray "${nodearray.name}" allows ${nodearray.maxCount} nodes and ${na.count} are in use` },
    {
      max: Math.floor(nodearray.maxCoreCount / vcpus),
      remaining: Math.floor((nodearray.maxCoreCount - na.cores) / vcpus),
      reason: `nodearray "${nodearray.name}" allows ${nodearray.maxCoreCount} cores and ${na.cores} are in use`,
    },
    { max: cluster.maxCount, remaining: cluster.maxCount - capacity.cluster.count, reason: `cluster "${cluster.name}" allows ${cluster.maxCount} nodes and ${capacity.cluster.count} are in use` },
    {
      max: Math.floor(cluster.maxCoreCount / vcpus),
      remaining: Math.floor((cluster.maxCoreCount - capacity.cluster.cores) / vcpus),
      reason: `cluster "${cluster.name}" allows ${cluster.maxCoreCount} cores and ${capacity.cluster.cores} are in use`,
    },
  ];
  if (placementGroup !== "") {
    const inGroup = tallyOf(capacity.byPlacementGroup, `${nodearray.name}/${bucket.machineType}/${placementGroup}`).count;
    const size = nodearray.maxPlacementGroupSize;
    limits.push({ max: size, remaining: size - inGroup, reason: `placement group "${placementGroup}" holds at most ${size} nodes and ${inGroup} are in it` });
  }
  return limits;
}

/** How many more nodes a bucket may take, its overall maximum, and the limit that binds. */
export interface Availability {
  availableCount: number;
  maxCount: number;
  /** Why no more can be added, phrased for a NodeCreationResult `message`. */
  reason: string;
}

/** Applies the bucket quota and the nodearray, cluster and placement-group limits together. */
export function availabilityOf(
  cluster: ClusterDefinition,
  nodearray: NodearrayDefinition,
  bucket: BucketDefinition,
  capacity: Capacity,
  placementGroup = "",
): Availability {
  const limits = limitsOf(cluster, nodearray, bucket, capacity, placementGroup);
  const binding = limits.reduce((min, l) => (l.remaining < min.remaining ? l : min));
  return {
    availableCount: Math.max(0, binding.remaining),
    maxCount: Math.max(0, Math.min(...limits.map((l) => l.max))),
    reason: binding.reason,
  };
}

/** Senlin's adjustment types of a `resize`. */
export const ADJUSTMENT_TYPES = ["EXACT_CAPACITY", "CHANGE_IN_CAPACITY", "CHANGE_IN_PERCENTAGE"] as const;

/** One of {@link ADJUSTMENT_TYPES}. */
export type AdjustmentType = (typeof ADJUSTMENT_TYPES)[number];

/** The size properties of a cluster. */
export interface ClusterSize {
  minSize: number;
  /** -1 means unbounded. */
  maxSize: number;
  desiredCapacity: number;
}

/** Rounds a percentage change: away from zero below one node, towards zero from one node on. */
function roundDelta(delta: number): number {
  if (Math.abs(delta) < 1) return delta > 0 ? Math.ceil(delta) : Math.floor(delta);
  return delta > 0 ? Math.floor(delta) : Math.ceil(delta);
}

const DESIRED: Readonly<Record<AdjustmentType, (current: number, number: number, minStep?: number) => number>> = {
  EXACT_CAPACITY: (_current, number) => number,
  CHANGE_IN_CAPACITY: (current, number) => current + number,
  CHANGE_IN_PERCENTAGE: (current, number, minStep) => {
    const rounded = roundDelta((number * current) / 100);
    // min_step widens a small percentage change to at least that many nodes, in its direction.
    if (minStep !== undefined && minStep > Math.abs(rounded)) return current + (rounded > 0 ? minStep : -minStep);
    return current + rounded;
  },
};

/** The desired capacity an adjustment asks for (scaleutils `calculate_desired`). */
export function calculateDesired(current: number, type: AdjustmentType, number: number, minStep?: number): number {
  return DESIRED[type](current, number, minStep);
}

/** Clamps a desired capacity to the new or current bounds, for `strict: false` (scaleutils `truncate_desired`). */
export function truncateDesired(cluster: ClusterSize, desired: number, minSize?: number, maxSize?: number): number {
  let result = desired;
  const min = minSize ?? cluster.minSize;
  if (result < min) result = min;
  if (maxSize !== undefined) {
    if (maxSize > 0 && result > maxSize) result = maxSize;
  } else if (cluster.maxSize > 0 && result > cluster.maxSize) {
    result = cluster.maxSize;
  }
  return result;
}

/** Senlin's `max_nodes_per_cluster` default. */
export const MAX_NODES_PER_CLUSTER = 1000;

/**
 * Checks a new desired capacity and bounds against each other and the cluster, as the server's
 * `scaleutils.check_size_params` does (same order, same messages); answers Senlin's message, or
 * undefined when they fit.
 * @param cluster - the current cluster; absent when creating one.
 * @param strict - whether the cluster's own bounds apply (every caller here checks strictly).
 */
export function checkSizeParams(
  cluster: ClusterSize | undefined,
  desired?: number,
  minSize?: number,
  maxSize?: number,
  strict = true,
): string | undefined {
  if (desired !== undefined) {
    if (desired > MAX_NODES_PER_CLUSTER) {
      return `The target capacity (${desired}) is greater than the maximum number of nodes allowed per cluster (${MAX_NODES_PER_CLUSTER}).`;
    }
    if (minSize !== undefined && desired < minSize) return `The target capacity (${desired}) is less than the specified min_size (${minSize}).`;
    if (minSize === undefined && cluster && desired < cluster.minSize && strict) {
      return `The target capacity (${desired}) is less than the cluster's min_size (${cluster.minSize}).`;
    }
    if (maxSize !== undefined && desired > maxSize && maxSize >= 0) {
      return `The target capacity (${desired}) is greater than the specified max_size (${maxSize}).`;
    }
    if (maxSize === undefined && cluster && desired > cluster.maxSize && cluster.maxSize >= 0 && strict) {
      return `The target capacity (${desired}) is greater than the cluster's max_size (${cluster.maxSize}).`;
    }
  }
  if (minSize !== undefined) {
    if (maxSize !== undefined && maxSize >= 0 && minSize > maxSize) return `The specified min_size (${minSize}) is greater than the specified max_size (${maxSize}).`;
    if (maxSize === undefined && cluster && cluster.maxSize >= 0 && minSize > cluster.maxSize) {
      return `The specified min_size (${minSize}) is greater than the current max_size (${cluster.maxSize}) of the cluster.`;
    }
    if (desired === undefined && cluster && minSize > cluster.desiredCapacity && strict) {
      return `The specified min_size (${minSize}) is greater than the current desired_capacity (${cluster.desiredCapacity}) of the cluster.`;
    }
  }
  if (maxSize !== undefined) {
    if (maxSize > MAX_NODES_PER_CLUSTER) {
      return `The specified max_size (${maxSize}) is greater than the maximum number of nodes allowed per cluster (${MAX_NODES_PER_CLUSTER}).`;
    }
    if (minSize === undefined && cluster && maxSize >= 0 && maxSize < cluster.minSize) {
      return `The specified max_size (${maxSize}) is less than the current min_size (${cluster.minSize}) of the cluster.`;
    }
    if (desired === undefined && cluster && maxSize >= 0 && maxSize < cluster.desiredCapacity && strict) {
      return `The specified max_size (${maxSize}) is less than the current desired_capacity (${cluster.desiredCapacity}) of the cluster.`;
    }
  }
  return undefined;
}

/** A validated resize request. */
export interface ResizeRequest {
  adjustmentType?: AdjustmentType;
  number?: number;
  minSize?: number;
  maxSize?: number;
  minStep?: number;
  /** @default true */
  strict?: boolean;
}

/** The size a resize leaves the cluster with, or Senlin's message when it does not fit. */
export type ResizeOutcome = { ok: true; size: ClusterSize } | { ok: false; message: string };

/**
 * Applies a resize to a cluster's size: the new desired capacity from the adjustment, truncated
 * to the bounds when not strict, then checked; new bounds replace the old ones. Without an
 * adjustment and not strict, the cluster's own desired capacity is truncated to the new bounds
 * (`parse_resize_params` starts from it), so new bounds alone clamp the size into them.
 */
export function planResize(cluster: ClusterSize, request: ResizeRequest): ResizeOutcome {
  const { adjustmentType, number, minSize, maxSize, minStep } = request;
  let desired: number | undefined;
  if (adjustmentType !== undefined && number !== undefined) {
    desired = calculateDesired(cluster.desiredCapacity, adjustmentType, number, minStep);
    if (request.strict === false) desired = truncateDesired(cluster, desired, minSize, maxSize);
  } else if (request.strict === false) {
    const truncated = truncateDesired(cluster, cluster.desiredCapacity, minSize, maxSize);
    if (truncated !== cluster.desiredCapacity) desired = truncated;
  }
  const message = checkSizeParams(cluster, desired, minSize, maxSize);
  if (message) return { ok: false, message };
  return {
    ok: true,
    size: {
      minSize: minSize ?? cluster.minSize,
      maxSize: maxSize ?? cluster.maxSize,
      desiredCapacity: desired ?? cluster.desiredCapacity,
    },
  };
}

import { create, equals } from "@bufbuild/protobuf";
import type { JobSpec } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import { type PodSpec, PodSpecSchema } from "../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import type { Demand } from "./runs";

/** The resource kinds a pool limits, and how a container's ResourceSpec states each. */
export const RESOURCE_KINDS = {
  cpu: "cpuLimit",
  memory: "memLimitMb",
  disk: "diskLimitMb",
  gpu: "gpuLimit",
} as const;

/** A resource kind: `cpu`, `memory`, `disk` or `gpu`. */
export type ResourceKind = keyof typeof RESOURCE_KINDS;

/** The pod spec of one instance: its own from `instance_spec`, else the job's default. */
export function podSpecFor(spec: JobSpec, instanceId: number): PodSpec {
  return spec.instanceSpec[instanceId] ?? spec.defaultSpec ?? create(PodSpecSchema);
}

/** What a pod asks of its pool: the sum of its containers' resources. */
export function demandOf(pod: PodSpec): Demand {
  const demand: Record<string, number> = {};
  for (const [kind, field] of Object.entries(RESOURCE_KINDS)) {
    demand[kind] = pod.containers.reduce((sum, c) => sum + (c.resource?.[field] ?? 0), 0);
  }
  return demand;
}

/** What a ReplaceJob from `before` to `after` does to each instance. */
export interface InstanceDiff {
  added: number[];
  removed: number[];
  updated: number[];
  unchanged: number[];
}

/** Compares two job configurations instance by instance; a missing `before` adds every instance. */
export function diffInstances(before: JobSpec | undefined, after: JobSpec): InstanceDiff {
  const oldCount = before?.instanceCount ?? 0;
  const diff: InstanceDiff = { added: [], removed: [], updated: [], unchanged: [] };
  for (let i = 0; i < Math.max(oldCount, after.instanceCount); i++) {
    if (i >= oldCount) diff.added.push(i);
    else if (i >= after.instanceCount) diff.removed.push(i);
    else if (before && equals(PodSpecSchema, podSpecFor(before, i), podSpecFor(after, i))) diff.unchanged.push(i);
    else diff.updated.push(i);
  }
  return diff;
}

/** Compresses sorted instance ids into half-open `[from, to)` ranges. */
export function toRanges(ids: readonly number[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const id of [...ids].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last && last[1] === id) last[1] = id + 1;
    else ranges.push([id, id + 1]);
  }
  return ranges;
}

/** Expands `[from, to)` ranges into instance ids below `count`, without duplicates, ascending. */
export function fromRanges(ranges: ReadonlyArray<readonly [number, number]>, count: number): number[] {
  const ids = new Set<number>();
  for (const [from, to] of ranges) for (let i = from; i < Math.min(to, count); i++) ids.add(i);
  return [...ids].sort((a, b) => a - b);
}

import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { JobSpecSchema } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import { demandOf, diffInstances, fromRanges, podSpecFor, toRanges } from "./pod-specs";

const pod = (image: string, cpu = 1) => ({ containers: [{ name: "c", resource: { cpuLimit: cpu, memLimitMb: 64 }, container: { type: 1, docker: { image } } }] });
const spec = (count: number, image = "a", instanceSpec: Record<number, ReturnType<typeof pod>> = {}) =>
  create(JobSpecSchema, { instanceCount: count, defaultSpec: pod(image), instanceSpec });

describe("pod specs", () => {
  it.each([
    [[], []],
    [[3], [[3, 4]]],
    [[0, 1, 2, 5, 7, 8], [[0, 3], [5, 6], [7, 9]]],
    [[4, 2, 3], [[2, 5]]],
  ])("compresses %j into ranges %j", (ids, ranges) => {
    expect(toRanges(ids)).toEqual(ranges);
  });

  it.each([
    [[[0, 2], [1, 4]], 10, [0, 1, 2, 3]],
    [[[3, 9]], 5, [3, 4]],
    [[[2, 2]], 5, []],
  ])("expands ranges %j below %i into %j", (ranges, count, ids) => {
    expect(fromRanges(ranges as Array<[number, number]>, count)).toEqual(ids);
  });

  it.each([
    ["a new job", undefined, spec(2), { added: [0, 1], removed: [], updated: [], unchanged: [] }],
    ["the same spec", spec(2), spec(2), { added: [], removed: [], updated: [], unchanged: [0, 1] }],
    ["a new image", spec(2), spec(2, "b"), { added: [], removed: [], updated: [0, 1], unchanged: [] }],
    ["a shrink", spec(3), spec(1), { added: [], removed: [1, 2], updated: [], unchanged: [0] }],
    ["one instance's own spec", spec(3), spec(3, "a", { 1: pod("b") }), { added: [], removed: [], updated: [1], unchanged: [0, 2] }],
  ])("diffs %s instance by instance", (_what, before, after, expected) => {
    expect(diffInstances(before, after)).toEqual(expected);
  });

  it("uses an instance's own spec over the default and sums container resources", () => {
    const s = spec(2, "a", { 1: { containers: [...pod("b", 2).containers, ...pod("c", 0.5).containers] } });
    expect(podSpecFor(s, 0).containers.map((c) => c.container?.docker?.image)).toEqual(["a"]);
    expect(demandOf(podSpecFor(s, 1))).toEqual({ cpu: 2.5, memory: 128, disk: 0, gpu: 0 });
  });
});

import { describe, expect, it } from "vitest";
import { ContainerInfo_Type } from "../../../../proto/gen/mesos/v1/mesos_pb";
import { HealthCheckSpec_HealthCheckType } from "../../../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import { deterministicUuid } from "../common";
import { opaqueFor, toJobSpec, toUpdateSpec } from "./job-spec";
import type { StatelessJobInputs } from "./schema";
import { podDemand } from "./wait";

const inputs: StatelessJobInputs = {
  owner: "o",
  resourceName: "web",
  name: "web-1",
  respoolId: "pool-1",
  instanceCount: 3,
  defaultSpec: {
    containers: [
      {
        name: "web",
        image: "nginx:1.27",
        command: { value: "nginx", arguments: ["-g", "daemon off;"] },
        resources: { cpu: 0.5, memoryMb: 128 },
        ports: [{ name: "http", value: 80 }],
        environment: { B: "2", A: "1" },
        livenessCheck: { command: "true" },
      },
      { name: "side", resources: { cpu: 0.25, memoryMb: 32, diskMb: 10 } },
    ],
  },
  instanceSpec: { "2": { containers: [{ name: "web", image: "nginx:canary", resources: { cpu: 1, memoryMb: 64 } }] } },
  labels: { b: "2", a: "1" },
  jobOwner: "alice",
};

describe("toJobSpec", () => {
  const spec = toJobSpec(inputs);

  it("carries the image as a Docker container, the command and the sorted environment in the Mesos command", () => {
    const [web, side] = spec.defaultSpec!.containers!;
    expect(web.container).toEqual({ type: ContainerInfo_Type.DOCKER, docker: { image: "nginx:1.27" } });
    expect(web.command).toEqual({
      value: "nginx",
      arguments: ["-g", "daemon off;"],
      shell: true,
      environment: { variables: [{ name: "A", value: "1" }, { name: "B", value: "2" }] },
    });
    expect(web.resource).toEqual({ cpuLimit: 0.5, memLimitMb: 128, diskLimitMb: 0, gpuLimit: 0, fdLimit: 0 });
    expect(web.livenessCheck).toMatchObject({ enabled: true, type: HealthCheckSpec_HealthCheckType.COMMAND, commandCheck: { command: "true" }, intervalSecs: 10 });
    expect(side.container).toBeUndefined();
    expect(side.command).toBeUndefined();
  });

  it("keys instance overrides by number, sorts labels and maps the job owner", () => {
    expect(Object.keys(spec.instanceSpec!)).toEqual(["2"]);
    expect(spec.labels).toEqual([{ key: "a", value: "1" }, { key: "b", value: "2" }]);
    expect(spec.owner).toBe("alice");
    expect(spec.respoolId).toEqual({ value: "pool-1" });
  });
});

describe("opaqueFor", () => {
  it("is the same digest whatever the key order, and another for another configuration", () => {
    const a = opaqueFor("spec", { x: 1, y: { b: 2, a: 1 } });
    expect(a).toMatch(/^clusterform:spec:[0-9a-f]{32}$/);
    expect(opaqueFor("spec", { y: { a: 1, b: 2 }, x: 1 })).toBe(a);
    expect(opaqueFor("spec", { x: 2, y: { a: 1, b: 2 } })).not.toBe(a);
    expect(opaqueFor("restart", { x: 1, y: { a: 1, b: 2 } })).not.toBe(a);
  });
});

describe("toUpdateSpec", () => {
  it.each([
    [undefined, { batchSize: 1, maxInstanceRetries: 3, maxTolerableInstanceFailures: 1, rollbackOnFailure: true, inPlace: false, startPaused: false }],
    [{ batchSize: 4, rollbackOnFailure: false }, { batchSize: 4, maxInstanceRetries: 3, maxTolerableInstanceFailures: 1, rollbackOnFailure: false, inPlace: false, startPaused: false }],
  ])("fills the defaults of %j", (policy, expected) => {
    expect(toUpdateSpec(policy)).toEqual(expected);
  });
});

describe("podDemand and deterministicUuid", () => {
  it("sums the containers' resources per pool kind", () => {
    expect(podDemand(inputs.defaultSpec)).toEqual({ cpu: 0.75, memory: 160, disk: 10, gpu: 0 });
  });

  it("derives a version-8 UUID that depends on every part", () => {
    const id = deterministicUuid("owner", "pool");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deterministicUuid("owner", "pool")).toBe(id);
    expect(deterministicUuid("owner", "pool2")).not.toBe(id);
  });
});

import { create } from "@bufbuild/protobuf";
import { Code, type ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { VClusterSpecSchema } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { applySpecMask, parseUpdateMask } from "./field-mask";

describe("parseUpdateMask", () => {
  it.each([
    [[], { specPaths: [], labels: false }],
    [["labels"], { specPaths: [], labels: true }],
    [["spec"], { specPaths: [""], labels: false }],
    [["spec.replicas", "labels"], { specPaths: ["replicas"], labels: true }],
    [["replicas"], { specPaths: ["replicas"], labels: false }],
    [["spec.resources.cpu_limit"], { specPaths: ["resources.cpu_limit"], labels: false }],
    [["spec.kubernetesVersion"], { specPaths: ["kubernetesVersion"], labels: false }],
  ])("%j -> %j", (paths, expected) => {
    expect(parseUpdateMask(paths)).toEqual(expected);
  });

  it.each([
    ["spec.nope", "unknown field; allowed: labels, spec, spec.kubernetes_version"],
    ["spec.replicas.x", "unknown field; allowed: labels, spec, "],
    ["spec.resources.cpu", "unknown field; allowed: labels, spec, spec.resources.cpu_request"],
    ["owner", "unknown field"],
  ])("rejects %j with INVALID_ARGUMENT", (path, message) => {
    let caught: unknown;
    try {
      parseUpdateMask([path]);
    } catch (error) {
      caught = error;
    }
    expect((caught as ConnectError).code).toBe(Code.InvalidArgument);
    expect((caught as ConnectError).rawMessage).toContain(`invalid update_mask path ${JSON.stringify(path)}: ${message}`);
  });
});

describe("applySpecMask", () => {
  const target = create(VClusterSpecSchema, { kubernetesVersion: "1.28.0", replicas: 1, distro: "k3s", resources: { cpuLimit: "1", memoryLimit: "1Gi" } });

  it("copies only the masked fields, nested ones included", () => {
    const source = create(VClusterSpecSchema, { kubernetesVersion: "1.30.0", replicas: 3, resources: { cpuLimit: "2" } });
    const out = applySpecMask(target, source, ["replicas", "resources.cpu_limit"]);
    expect(out).toMatchObject({ kubernetesVersion: "1.28.0", replicas: 3, distro: "k3s", resources: { cpuLimit: "2", memoryLimit: "1Gi" } });
  });

  it("clears a masked field the source leaves empty", () => {
    const out = applySpecMask(target, create(VClusterSpecSchema), ["resources"]);
    expect(out.resources).toBeUndefined();
    expect(out.replicas).toBe(1);
  });

  it("replaces the whole spec for the empty path", () => {
    const source = create(VClusterSpecSchema, { distro: "k0s" });
    expect(applySpecMask(target, source, [""])).toMatchObject({ distro: "k0s", replicas: 0, kubernetesVersion: "" });
  });
});

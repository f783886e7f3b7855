import { describe, expect, it } from "vitest";
import { failureDiagnostics } from "./diagnostics";
import { resourceType } from "./schema";

describe("failureDiagnostics", () => {
  it.each([
    ["a top-level field", "clusterform_cmassh_cluster", "kubernetesVersion", "kubernetesVersion must be a version", "kubernetes_version", "kubernetes_version must be a version"],
    ["a nested field renamed by the kind", "clusterform_cmassh_cluster", "controlPlane.count", "controlPlane.count must be an integer", "control_plane", "control_plane.node_count must be an integer"],
    ["a map's key, kept as written", "clusterform_cmassh_cluster", 'controlPlane.labels["fooBar"]', 'controlPlane.labels["fooBar"] must be a label value', "control_plane", 'control_plane.labels["fooBar"] must be a label value'],
    ["fields inside a list", "clusterform_peloton_stateless_job", "defaultSpec.containers[0].resources.memoryMb", "defaultSpec.containers[0].resources.memoryMb must be", "default_spec", "default_spec.containers[0].resources.memory_mb must be"],
    ["a nested name the schema does not have, kept from there on", "clusterform_cmassh_cluster", "controlPlane.someField", "controlPlane.someField is not a known field", "control_plane", "control_plane.someField is not a known field"],
  ])("names %s by its HCL path", async (_what, typeName, property, reason, attribute, detail) => {
    const { type } = (await resourceType(typeName))!;
    expect(failureDiagnostics(type, [{ property, reason }])).toEqual([
      { severity: 1, summary: `Invalid ${attribute}`, detail, attribute: { steps: [{ selector: { case: "attributeName", value: attribute } }] } },
    ]);
  });

  it("leaves a failure of the resource as a whole as it is, pointing at no attribute", async () => {
    const { type } = (await resourceType("clusterform_cyclecloud_node_pool"))!;
    const reason = "inputs must set either count (nodes) or coreCount (cores), got neither";
    expect(failureDiagnostics(type, [{ property: "", reason }])).toEqual([{ severity: 1, summary: "Invalid clusterform_cyclecloud_node_pool", detail: reason }]);
  });
});

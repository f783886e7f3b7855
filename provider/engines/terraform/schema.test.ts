import { beforeAll, describe, expect, it } from "vitest";
import type { Kind } from "../../core/definition/kind";
import { allKinds } from "../../kinds";
import { buildResourceTypes, terraformTypeName } from "./schema";

let KINDS: Kind[] = [];
beforeAll(async () => {
  KINDS = await allKinds();
});
const resourceTypes = () => buildResourceTypes(KINDS);

describe("the Terraform schema derived from the field definitions", () => {
  it("serves every kind under its HCL type name", () => {
    expect([...resourceTypes().keys()].sort()).toEqual([
      "clusterform_cmassh_cluster",
      "clusterform_cmassh_node_pool",
      "clusterform_cyclecloud_node_pool",
      "clusterform_peloton_resource_pool",
      "clusterform_peloton_stateless_job",
      "clusterform_senlin_cluster",
      "clusterform_senlin_policy",
      "clusterform_senlin_profile",
      "clusterform_senlin_receiver",
      "clusterform_vcluster_snapshot",
      "clusterform_vcluster_vcluster",
    ]);
  });

  it("forces replacement exactly for the inputs whose change policy is replace", () => {
    for (const kind of KINDS) {
      const type = resourceTypes().get(terraformTypeName(kind.type))!;
      const replacing = type.attributes.filter((a) => a.forcesReplacement).map((a) => a.field).sort();
      const policies = Object.entries(kind.allInputs).filter(([, f]) => f.policy?.kind === "replace").map(([k]) => k).sort();
      expect(replacing, kind.type).toEqual(policies);
    }
  });

  it("names attributes in snake_case, renames HCL's reserved count, and marks secrets sensitive", () => {
    const pool = resourceTypes().get("clusterform_cmassh_node_pool")!;
    expect(pool.attributes.find((a) => a.field === "count")?.name).toBe("node_count");
    expect(pool.attributes.find((a) => a.field === "clusterName")).toMatchObject({ name: "cluster_name", required: true, forcesReplacement: true });
    const cluster = resourceTypes().get("clusterform_cmassh_cluster")!;
    expect(cluster.attributes.find((a) => a.name === "kubeconfig")).toMatchObject({ sensitive: true, computed: true, output: true });
    const controlPlane = cluster.attributes.find((a) => a.name === "control_plane")!;
    expect(controlPlane.node.kind === "object" && controlPlane.node.attributes.map((a) => a.name)).toEqual(["instance_type", "node_count", "labels"]);
    const receiver = resourceTypes().get("clusterform_senlin_receiver")!;
    expect(receiver.attributes.find((a) => a.name === "alarm_url")).toMatchObject({ sensitive: true, computed: true, output: true });
    expect(receiver.attributes.filter((a) => a.forcesReplacement).map((a) => a.name).sort()).toEqual(["cluster", "type"]);
    const vc = resourceTypes().get("clusterform_vcluster_vcluster")!;
    expect(vc.attributes.find((a) => a.field === "vclusterOwner")?.name).toBe("vcluster_owner");
    for (const type of resourceTypes().values()) {
      const names = type.attributes.map((a) => a.name);
      for (const reserved of ["count", "for_each", "provider", "depends_on", "lifecycle", "connection", "provisioner"]) expect(names).not.toContain(reserved);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});

import { describe, expect, it } from "vitest";
import { KIND_TYPES, kindOf } from "../../kinds";
import { loadKind, TYPE_NAMES, terraformTypeName } from "./kind-modules";

describe("the Terraform types of this release", () => {
  it("are exactly the kinds of this release, in their order, under their HCL names", () => {
    expect(TYPE_NAMES).toEqual(KIND_TYPES.map(terraformTypeName));
    expect(TYPE_NAMES).toContain("clusterform_vcluster_vcluster");
    expect(TYPE_NAMES).toContain("clusterform_cmassh_node_pool");
  });

  it("load, for each type, that kind's definition, and nothing for a type this release does not serve", async () => {
    for (const type of KIND_TYPES) expect(await loadKind(terraformTypeName(type)), type).toBe(await kindOf(type));
    expect(await loadKind("clusterform_nope")).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { ownerMarker } from "../../core/naming";
import { importIdentityOf } from "../../core/import";
import { parseUrn } from "./urn";

describe("identity from the URN", () => {
  const urn = "urn:pulumi:dev::shop::pulumi:pulumi:Stack$clusterform:cmassh:Cluster::prod::eu";

  it("splits stack, project, type and a name that holds `::`", () => {
    expect(parseUrn(urn)).toEqual({ stack: "dev", project: "shop", type: "clusterform:cmassh:Cluster", name: "prod::eu" });
  });

  it("gives the core the owner marker the dynamic SDK computes and the resource name (core/import.ts reads them)", () => {
    expect(importIdentityOf(urn)).toEqual({ owner: ownerMarker("shop", "dev", "prod::eu"), resourceName: "prod::eu" });
  });

  it("refuses what is not a resource URN, naming it", () => {
    expect(() => parseUrn("cmassh:Cluster")).toThrow('not a resource URN: "cmassh:Cluster"');
  });
});

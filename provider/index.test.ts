import { describe, expect, it } from "vitest";
import * as entry from "./index";

const METHODS = ["configure", "check", "diff", "create", "read", "update", "delete"] as const;
const OWNER = "0123456789abcdef";

describe("the clusterform/provider entry point", () => {
  it("keeps exporting every function a stored __provider text calls", () => {
    // Release 0.1.0 texts call the seven per-method functions; later texts call dynamicProvider.
    for (const name of [...METHODS, "dynamicProvider"]) expect(typeof (entry as Record<string, unknown>)[name], name).toBe("function");
  });

  it("routes a type's check to that kind, from the per-method function and from dynamicProvider alike", async () => {
    const news = { owner: OWNER, resourceName: "prod", kubernetesVersion: "v1.31.6", controlPlane: { instanceType: "standard", count: 1 } };
    const viaFunction = await entry.check("cmassh:Cluster", {}, news);
    const viaProvider = await entry.dynamicProvider("cmassh:Cluster").check!({}, news);
    expect(viaFunction).toEqual(viaProvider);
    expect(viaFunction.failures).toEqual([]);
    expect(viaFunction.inputs).toMatchObject({ kubernetesVersion: "1.31.6", name: expect.stringMatching(/^prod-[0-9a-f]{7}$/), autoNamed: true });
    const failed = await entry.check("cmassh:NodePool", {}, { owner: OWNER, resourceName: "p", clusterName: "c", instanceType: "huge", count: 1 });
    expect(failed.failures?.map((f) => f.property)).toEqual(["instanceType"]);
  });

  it("builds a provider of an unknown type, whose first call names the type and the known ones", async () => {
    const provider = entry.dynamicProvider("nope:Thing");
    // The host awaits each call inside a try, so a synchronous throw reaches the engine all the same.
    await expect((async () => provider.create({}))()).rejects.toThrow(/unknown resource type "nope:Thing"; this release knows: .*cmassh:Cluster/);
  });
});

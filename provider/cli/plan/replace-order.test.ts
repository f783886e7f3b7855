import { beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../core/unknown";
import { replacementOrder } from "./replace-order";
import { loadKinds } from "./planners";

// Native replacements read the kind's identity from its handler: load them from the sources.
beforeAll(loadKinds);

const NATIVE_POOL = "clusterform:cmassh:NodePool";
const urn = (type: string, name: string) => `urn:pulumi:dev::proj::${type}::${name}`;
const pool = { clusterName: "prod", instanceType: "standard", count: 2 };

describe("replacementOrder: one answer for the plan command, the preview's rows and the policy pack", () => {
  it("native plugin: creates first when the new object has another identity (a derived name that hashes the changed field)", () => {
    const olds = { ...pool, name: "work-1a2b3c4" };
    const news = { ...pool, name: "work-5d6e7f8", instanceType: "gpu" };
    expect(replacementOrder({ type: NATIVE_POOL, urn: urn(NATIVE_POOL, "work"), olds, news })).toBe("create-first");
  });

  it("native plugin: deletes first when the new object would take the old one's identity (a user-chosen name)", () => {
    const olds = { ...pool, name: "work" };
    const news = { ...pool, name: "work", instanceType: "gpu" };
    expect(replacementOrder({ type: NATIVE_POOL, urn: urn(NATIVE_POOL, "work"), olds, news })).toBe("delete-first");
  });

  it("native plugin: an identity the URN gives (a Senlin cluster's ownership marker) is the same old and new: delete first", () => {
    const type = "clusterform:senlin:Cluster";
    const olds = { name: "web", profile: "p1", desiredCapacity: 1 };
    expect(replacementOrder({ type, urn: urn(type, "web"), olds, news: { ...olds, profile: "p2" } })).toBe("delete-first");
  });

  it("native plugin: an identity unknown at preview is no clash, as in the plugin's diff: create first", () => {
    const olds = { ...pool, name: "work" };
    expect(replacementOrder({ type: NATIVE_POOL, urn: urn(NATIVE_POOL, "work"), olds, news: { ...olds, clusterName: UNKNOWN } })).toBe("create-first");
  });

  it("the resource option overrides the provider, both ways", () => {
    const same = { ...pool, name: "work" };
    expect(replacementOrder({ type: NATIVE_POOL, urn: urn(NATIVE_POOL, "work"), olds: same, news: same, option: false })).toBe("create-first");
    const dyn = "pulumi-nodejs:dynamic/cmassh:NodePool";
    expect(replacementOrder({ type: dyn, olds: same, news: { ...same, deleteBeforeReplace: false }, option: true })).toBe("delete-first");
  });

  it("dynamic provider: its hidden input decides; state without it deletes first", () => {
    const dyn = "pulumi-nodejs:dynamic/cmassh:NodePool";
    expect(replacementOrder({ type: dyn, olds: pool, news: { ...pool, deleteBeforeReplace: false } })).toBe("create-first");
    expect(replacementOrder({ type: dyn, olds: pool, news: { ...pool, deleteBeforeReplace: true } })).toBe("delete-first");
    expect(replacementOrder({ type: dyn, olds: pool, news: pool })).toBe("delete-first");
  });
});

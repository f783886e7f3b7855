import { describe, expect, it } from "vitest";
import { vclusterVCluster } from "../../kinds/vcluster/vcluster/kind";
import { buildResourceType } from "./schema";
import { withIdentity } from "./state";

const vcluster = buildResourceType(vclusterVCluster as never);
const base = { name: "dev", namespace: "team-dev", isolationMode: "full", replicas: 1, labels: { a: "1", b: "2" } };

describe("the identity a new object gets in HCL", () => {
  it("is the same for the same name and the same values that force replacement, whatever the values changed in place", () => {
    const first = withIdentity(vcluster, base);
    expect(withIdentity(vcluster, { ...base, replicas: 3, labels: { b: "2", a: "1" } }).owner).toBe(first.owner);
    expect(first.resourceName).toBe("dev");
  });

  it("differs when a value that forces replacement differs, so a create-first replacement never adopts the object it replaces", () => {
    expect(withIdentity(vcluster, { ...base, isolationMode: "lite" }).owner).not.toBe(withIdentity(vcluster, base).owner);
    expect(withIdentity(vcluster, { ...base, name: "other" }).owner).not.toBe(withIdentity(vcluster, base).owner);
  });

  it("stays what an existing object was created with", () => {
    expect(withIdentity(vcluster, { ...base, isolationMode: "lite" }, { owner: "0123456789abcdef", resourceName: "dev" }).owner).toBe("0123456789abcdef");
  });
});

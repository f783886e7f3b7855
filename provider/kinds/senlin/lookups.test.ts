import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import type { ConfigReader } from "../../core/config";
import { planeConfig, planeSenlin, testHandler, testLookup } from "../testing";
import { senlinCluster } from "./cluster/kind";
import { senlinPolicy } from "./policy/kind";
import { senlinProfile } from "./profile/kind";

const SPEC = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small" } };
const POLICY = { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } };
const MISSING = "00000000-0000-4000-8000-000000000000";
type Items = Record<string, unknown>[];

let t: TestPlane;
let config: ConfigReader;
let profileId: string;
let policyId: string;
let clusterId: string;
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0 });
  config = planeConfig(t.plane.url);
  const senlin = planeSenlin(t);
  profileId = (await senlin.createProfile("small", SPEC)).id;
  policyId = (await senlin.createPolicy("deletion", POLICY)).id;
  const clusters = testHandler(senlinCluster);
  await clusters.configure(config);
  const raw = { __provider: "p", owner: "0123456789abcdef", resourceName: "web", name: "web", profile: "small", minSize: 1, maxSize: 4, desiredCapacity: 2, policies: [{ policy: "deletion", enabled: true }] };
  clusterId = (await clusters.create((await clusters.check({}, raw)).inputs)).id;
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

describe("senlin:Cluster lookups", () => {
  const lookups = () => testLookup(senlinCluster, t, config);

  it("getCluster reads a cluster by id with two calls: the cluster and its policy bindings", async () => {
    const { result, calls } = await lookups().run("getCluster", { id: clusterId });
    expect(calls).toEqual(["senlin:GetCluster", "senlin:ListClusterPolicies"]);
    expect(result).toMatchObject({ id: clusterId, name: "web", profile: "small", minSize: 1, maxSize: 4, desiredCapacity: 2, status: "ACTIVE", policies: [{ policy: "deletion", enabled: true }] });
  });

  it("getCluster of a missing id fails naming the kind, the id and the endpoint", async () => {
    expect(await lookups().fails("getCluster", { id: MISSING })).toBe(`looking up senlin:Cluster id "${MISSING}": NOT_FOUND: no such object at the senlin endpoint ${t.plane.url}`);
  });

  it("getClusters filters with Senlin's name and status in one call; no match is an empty list", async () => {
    const { result, calls } = await lookups().run("getClusters", { name: "web", status: "ACTIVE" });
    expect(calls).toEqual(["senlin:ListClusters"]);
    expect((result.clusters as Items).map((c) => [c.id, c.name, c.desiredCapacity])).toEqual([[clusterId, "web", 2]]);
    expect((result.clusters as Items)[0]).not.toHaveProperty("policies");
    expect((await lookups().run("getClusters", { status: "ERROR" })).result).toEqual({ clusters: [] });
  });
});

describe("senlin:Profile and senlin:Policy lookups", () => {
  it("getProfile and getPolicy read an object by id with one call", async () => {
    const profile = await testLookup(senlinProfile, t, config).run("getProfile", { id: profileId });
    expect(profile.calls).toEqual(["senlin:GetProfile"]);
    expect(profile.result).toMatchObject({ id: profileId, name: "small", spec: SPEC });
    const policy = await testLookup(senlinPolicy, t, config).run("getPolicy", { id: policyId });
    expect(policy.result).toMatchObject({ id: policyId, name: "deletion", spec: POLICY });
  });

  it("getProfiles and getPolicies filter with Senlin's name and type; no match is an empty list", async () => {
    const profiles = await testLookup(senlinProfile, t, config).run("getProfiles", { type: "os.nova.server-1.0" });
    expect(profiles.calls).toEqual(["senlin:ListProfiles"]);
    expect((profiles.result.profiles as Items).map((p) => p.id)).toEqual([profileId]);
    expect((await testLookup(senlinProfile, t, config).run("getProfiles", { name: "nosuch" })).result).toEqual({ profiles: [] });
    const policies = await testLookup(senlinPolicy, t, config).run("getPolicies", { name: "deletion" });
    expect((policies.result.policies as Items).map((p) => p.id)).toEqual([policyId]);
  });

  it("getProfileTypes and getPolicyTypes list what the server has installed with one call each", async () => {
    const profileTypes = await testLookup(senlinProfile, t, config).run("getProfileTypes");
    expect(profileTypes.calls).toEqual(["senlin:ListProfileTypes"]);
    expect(profileTypes.result.types).toContainEqual({ name: "os.nova.server-1.0", type: "os.nova.server", version: "1.0" });
    const policyTypes = await testLookup(senlinPolicy, t, config).run("getPolicyTypes");
    expect(policyTypes.result.types).toContainEqual({ name: "senlin.policy.deletion-1.0", type: "senlin.policy.deletion", version: "1.0" });
  });

  it("refuses an id that is not a UUID before any call", async () => {
    expect((await testLookup(senlinProfile, t, config).refused("getProfile", { id: "small" })).map((f) => f.property)).toEqual(["id"]);
  });
});

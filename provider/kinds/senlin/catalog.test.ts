import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import type { SenlinClient } from "../../clients/senlin/client";
import type { ConfigReader } from "../../core/config";
import { importFailures, importRoundTrip, lastSeq, planeConfig, planeSenlin, testHandler, testImporter, writesSince } from "../testing";
import { senlinCluster } from "./cluster/kind";
import { senlinPolicy } from "./policy/kind";
import { senlinProfile } from "./profile/kind";
import { DYNAMIC_ENGINE } from "../../engines/dynamic/engine";

const clusterHandler = testHandler(senlinCluster);
const policyHandler = testHandler(senlinPolicy);
const policyImport = testImporter(senlinPolicy);
const profileHandler = testHandler(senlinProfile);
const profileImport = testImporter(senlinProfile);

// senlin:Profile and senlin:Policy against the local Senlin: create, adoption of an interrupted
// create, updates in place, deletes refused while in use, import. One plane for the file.

const PROFILE_SPEC = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } };
const POLICY_SPEC = { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } };

let t: TestPlane;
let config: ConfigReader;
let senlin: SenlinClient;
beforeAll(async () => {
  t = await startTestPlane({ timeScale: 0 });
  config = planeConfig(t.plane.url);
  for (const h of [profileHandler, policyHandler, clusterHandler]) await h.configure(config);
  senlin = planeSenlin(t);
});
afterAll(async () => {
  await t.close();
  removeDataDirs();
});

const checked = async (handler: typeof profileHandler, raw: Record<string, unknown>) => {
  const { inputs, failures } = await handler.check({}, raw);
  expect(failures).toEqual([]);
  return inputs;
};

describe("senlin:Profile on the local Senlin", () => {
  it("creates with the owner marker, renames and re-labels in place with one PATCH, and imports by id", async () => {
    const inputs = await checked(profileHandler, { __provider: "p", owner: "1111111111111111", resourceName: "web", spec: PROFILE_SPEC, metadata: { team: "a" } });
    const { id, outs } = await profileHandler.create(inputs);
    expect(outs.profileType).toBe("os.nova.server-1.0");
    expect((await senlin.getProfile(id)).metadata).toEqual({ team: "a", "clusterform.dev/owner": "1111111111111111" });
    const news = await profileHandler.check(inputs, { ...inputs, name: "web-renamed", metadata: { team: "b" } });
    const since = await lastSeq(t);
    await profileHandler.update(id, { ...inputs, ...outs }, news.inputs);
    expect(await writesSince(t, since)).toEqual(["senlin:UpdateProfile"]);
    expect(await senlin.getProfile(id)).toMatchObject({ name: "web-renamed", metadata: { team: "b", "clusterform.dev/owner": "1111111111111111" } });
    const created = { ...news.inputs };
    delete created.autoNamed;
    const result = await importRoundTrip({ t, config, handler: profileHandler, importer: profileImport, id, created: { ...created, autoNamed: false } });
    expect(result.props).toMatchObject({ profileType: "os.nova.server-1.0" });
  });

  it("adopts the profile an interrupted create left, so there is one", async () => {
    const inputs = await checked(profileHandler, { __provider: "p", owner: "2222222222222222", resourceName: "kept", spec: PROFILE_SPEC });
    const left = await senlin.createProfile(inputs.name as string, PROFILE_SPEC, { "clusterform.dev/owner": "2222222222222222" });
    const { id } = await profileHandler.create(inputs);
    expect(id).toBe(left.id);
    expect((await senlin.listProfiles({ filters: { name: inputs.name as string } })).length).toBe(1);
  });

  it("adopts a leftover with create-first too, but never a profile a cluster uses (the one `up --replace` replaces)", async () => {
    const inputs = await checked(profileHandler, { __provider: "p", owner: "3333333333333333", resourceName: "rep", spec: PROFILE_SPEC, deleteBeforeReplace: false });
    const left = await senlin.createProfile(inputs.name as string, PROFILE_SPEC, { "clusterform.dev/owner": "3333333333333333" });
    expect((await profileHandler.create(inputs)).id).toBe(left.id);
    const cluster = await clusterHandler.create(await checked(clusterHandler, { __provider: "p", owner: "3434343434343434", resourceName: "c", profile: left.id }));
    const since = await lastSeq(t);
    const { id } = await profileHandler.create(inputs);
    expect(id).not.toBe(left.id);
    expect(await writesSince(t, since)).toEqual(["senlin:CreateProfile"]);
    // For an engine that records states late (OpenTofu: a killed apply made the profile and the
    // cluster that uses it, and recorded neither), create adopts the profile in use.
    const lateHandler = testHandler(senlinProfile, { ...DYNAMIC_ENGINE, recordsStateAtEnd: true });
    await lateHandler.configure(config);
    const late = await checked(lateHandler, { __provider: "p", owner: "3535353535353535", resourceName: "late", spec: PROFILE_SPEC });
    const made = await senlin.createProfile(late.name as string, PROFILE_SPEC, { "clusterform.dev/owner": "3535353535353535" });
    const user = await clusterHandler.create(await checked(clusterHandler, { __provider: "p", owner: "3636363636363636", resourceName: "c2", profile: made.id }));
    const quiet = await lastSeq(t);
    expect((await lateHandler.create(late)).id).toBe(made.id);
    expect(await writesSince(t, quiet)).toEqual([]);
    await clusterHandler.delete(cluster.id, cluster.outs);
    await clusterHandler.delete(user.id, user.outs);
  });

  it("refuses to delete a profile a cluster uses with a message that says what to do, and deletes it once free", async () => {
    const inputs = await checked(profileHandler, { __provider: "p", owner: "4444444444444444", resourceName: "used", spec: PROFILE_SPEC });
    const { id } = await profileHandler.create(inputs);
    const cluster = await checked(clusterHandler, { __provider: "p", owner: "5555555555555555", resourceName: "c", profile: id });
    const made = await clusterHandler.create(cluster);
    await expect(profileHandler.delete(id, inputs)).rejects.toThrow(/Senlin refuses to delete a profile while a cluster or node uses it; nothing was deleted/);
    expect((await senlin.getProfile(id)).id).toBe(id);
    await clusterHandler.delete(made.id, made.outs);
    await profileHandler.delete(id, inputs);
    await expect(senlin.getProfile(id)).rejects.toThrow(/NotFound|404|could not be found/);
    // Gone already: a second delete succeeds.
    await profileHandler.delete(id, inputs);
  });

  it("a create whose answer is lost after Senlin made the profile adopts it: exactly one profile", async () => {
    const inputs = await checked(profileHandler, { __provider: "p", owner: "abababababababab", resourceName: "lost", spec: PROFILE_SPEC });
    await t.http("POST", "/_local/faults", { api: "senlin", operation: "CreateProfile", action: "reset", stage: "response" });
    const { id } = await profileHandler.create(inputs);
    // The fault was used: the answer really was lost.
    expect((await t.http("GET", "/_local/faults")).body).toMatchObject({ faults: [] });
    expect((await senlin.listProfiles({ filters: { name: inputs.name as string } })).map((p) => p.id)).toEqual([id]);
  });

  it("three transient failures, then success; a permanent failure names the call and Senlin's message, creating nothing", async () => {
    const inputs = await checked(profileHandler, { __provider: "p", owner: "cdcdcdcdcdcdcdcd", resourceName: "flaky", spec: PROFILE_SPEC });
    await t.http("POST", "/_local/faults", { api: "senlin", operation: "CreateProfile", action: "error", code: "UNAVAILABLE", count: 3 });
    const { id } = await profileHandler.create(inputs);
    expect((await t.http("GET", "/_local/faults")).body).toMatchObject({ faults: [] });
    expect((await senlin.listProfiles({ filters: { name: inputs.name as string } })).map((p) => p.id)).toEqual([id]);
    const bad = await checked(profileHandler, { __provider: "p", owner: "efefefefefefefef", resourceName: "bad", spec: { ...PROFILE_SPEC, type: "os.nova.unknown" } });
    await expect(profileHandler.create(bad)).rejects.toThrow(/CreateProfile profile "bad-[0-9a-f]{7}": HTTP 404: The profile_type 'os.nova.unknown-1.0' could not be found/);
    expect(await senlin.listProfiles({ filters: { name: bad.name as string } })).toEqual([]);
  });

  it("fails the import clearly on a wrong-shaped id, a missing profile and an unreachable endpoint", async () => {
    await importFailures({ t, config, handler: profileHandler, importer: profileImport }, "web", "00000000-0000-4000-8000-000000000000");
  });
});

describe("senlin:Policy on the local Senlin", () => {
  it("creates, renames in place, refuses to delete while attached, and imports by id", async () => {
    const inputs = await checked(policyHandler, { __provider: "p", owner: "6666666666666666", resourceName: "del", spec: POLICY_SPEC });
    const { id, outs } = await policyHandler.create(inputs);
    expect(outs.policyType).toBe("senlin.policy.deletion-1.0");
    const news = await policyHandler.check(inputs, { ...inputs, name: "deletion-renamed" });
    const since = await lastSeq(t);
    await policyHandler.update(id, { ...inputs, ...outs }, news.inputs);
    expect(await writesSince(t, since)).toEqual(["senlin:UpdatePolicy"]);
    expect((await senlin.getPolicy(id)).name).toBe("deletion-renamed");

    const profile = await profileHandler.create(await checked(profileHandler, { __provider: "p", owner: "7777777777777777", resourceName: "p", spec: PROFILE_SPEC }));
    const cluster = await clusterHandler.create(await checked(clusterHandler, { __provider: "p", owner: "8888888888888888", resourceName: "c", profile: profile.id, policies: [{ policy: id }] }));
    await expect(policyHandler.delete(id, inputs)).rejects.toThrow(/Senlin refuses to delete a policy while a cluster has it attached; nothing was deleted/);
    await clusterHandler.delete(cluster.id, cluster.outs);

    const result = await importRoundTrip({ t, config, handler: policyHandler, importer: policyImport, id, created: { ...news.inputs, autoNamed: false } });
    expect(result.props).toMatchObject({ policyType: "senlin.policy.deletion-1.0" });
    await policyHandler.delete(id, inputs);
    await expect(senlin.getPolicy(id)).rejects.toThrow();
  });

  it("adopts a policy of its derived name and spec that an interrupted create left", async () => {
    const inputs = await checked(policyHandler, { __provider: "p", owner: "9999999999999999", resourceName: "del", spec: POLICY_SPEC });
    const left = await senlin.createPolicy(inputs.name as string, POLICY_SPEC);
    const since = await lastSeq(t);
    expect((await policyHandler.create(inputs)).id).toBe(left.id);
    expect(await writesSince(t, since)).toEqual([]);
  });

  it("an update whose answer is lost is sent again, and one an interrupted run already made is done (Senlin's 'No property needs an update')", async () => {
    for (const [handler, kind, raw] of [
      [policyHandler, "Policy", { resourceName: "patched", spec: POLICY_SPEC }],
      [profileHandler, "Profile", { resourceName: "patched", spec: PROFILE_SPEC, metadata: { round: "r0" } }],
    ] as const) {
      const inputs = await checked(handler, { __provider: "p", owner: "1212121212121212", ...raw });
      const { id, outs } = await handler.create(inputs);
      const get = (i: string) => (kind === "Policy" ? senlin.getPolicy(i) : senlin.getProfile(i));
      // The PATCH lands, its answer is lost with the connection: sent again, which Senlin refuses as changing nothing.
      const lost = (await handler.check(inputs, { ...inputs, name: `${kind.toLowerCase()}-r1` })).inputs;
      await t.http("POST", "/_local/faults", { api: "senlin", operation: `Update${kind}`, action: "reset", stage: "response" });
      const since = await lastSeq(t);
      await handler.update(id, { ...inputs, ...outs }, lost);
      expect((await t.http("GET", "/_local/faults")).body).toMatchObject({ faults: [] });
      expect(await writesSince(t, since)).toEqual([`senlin:Update${kind}`, `senlin:Update${kind}`]);
      expect((await get(id)).name).toBe(`${kind.toLowerCase()}-r1`);
      // A killed run's PATCH landed and its state kept the old name: the next run's update is done at once.
      await (kind === "Policy" ? senlin.updatePolicy(id, { name: `${kind.toLowerCase()}-r2` }) : senlin.updateProfile(id, { name: `${kind.toLowerCase()}-r2` }));
      const landed = (await handler.check(lost, { ...lost, name: `${kind.toLowerCase()}-r2` })).inputs;
      await handler.update(id, { ...lost, ...outs }, landed);
      expect((await get(id)).name).toBe(`${kind.toLowerCase()}-r2`);
      await handler.delete(id, landed);
    }
  });

  it("fails the import clearly on a wrong-shaped id, a missing policy and an unreachable endpoint", async () => {
    await importFailures({ t, config, handler: policyHandler, importer: policyImport }, "x/y", "00000000-0000-4000-8000-000000000000");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../../../emulator/clock";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../../emulator/testing";
import type { SenlinClient } from "../../../clients/senlin/client";
import type { ConfigReader } from "../../../core/config";
import { lastSeq, planeConfig, planeSenlin, testHandler, writesSince } from "../../testing";
import { senlinCluster } from "./kind";

// senlin:Cluster against the local control plane, through the core as the engines call it.

const clusterHandler = testHandler(senlinCluster);
const identity = { __provider: "p", owner: "0123456789abcdef", resourceName: "web" };

interface ClusterView {
  id: string;
  name: string;
  status: string;
  nodes: string[];
  bindings: unknown[];
}

/** A plane holding the profile `small` and the policies `deletion` and `affinity`, the handler configured for it. */
async function seededPlane(opts: Parameters<typeof startTestPlane>[0]): Promise<{ t: TestPlane; senlin: SenlinClient }> {
  const t = await startTestPlane(opts);
  const config: ConfigReader = planeConfig(t.plane.url);
  await clusterHandler.configure(config);
  const senlin = planeSenlin(t);
  await senlin.createProfile("small", { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small" } });
  for (const [name, type] of [
    ["deletion", "senlin.policy.deletion"],
    ["affinity", "senlin.policy.affinity"],
  ]) {
    await senlin.createPolicy(name, { type, version: "1.0", properties: {} });
  }
  return { t, senlin };
}

async function clustersOf(t: TestPlane): Promise<ClusterView[]> {
  return ((await t.http("GET", "/_local/senlin/clusters")).body as { clusters: ClusterView[] }).clusters;
}

afterAll(removeDataDirs);

// A cluster deleted outside the stack: refresh reads it as gone (the engine then drops it from the
// state, tested once per engine end to end), and the next create makes it again, policy and all.
describe("senlin:Cluster deleted outside the stack", () => {
  let t: TestPlane;
  let senlin: SenlinClient;
  beforeAll(async () => {
    ({ t, senlin } = await seededPlane({ timeScale: 0 }));
  });
  afterAll(async () => {
    await t.close();
  });

  it("reads as gone with no write, and a create makes it again with its policy attached", async () => {
    const raw = { ...identity, profile: "small", minSize: 1, desiredCapacity: 2, maxSize: 4, policies: [{ policy: "deletion" }] };
    const inputs = (await clusterHandler.check({}, raw)).inputs;
    const created = await clusterHandler.create(inputs);
    // Read right after create answers what create recorded: a refresh changes nothing.
    expect(await clusterHandler.read(created.id, created.outs)).toEqual({ id: created.id, props: created.outs });

    // An operator detaches the policy and deletes the cluster.
    await senlin.detachPolicy(created.id, "deletion");
    await senlin.deleteCluster(created.id);
    await expect.poll(async () => (await clustersOf(t)).length).toBe(0);

    const since = await lastSeq(t);
    expect(await clusterHandler.read(created.id, created.outs)).toEqual({ id: "", props: {} });
    expect(await writesSince(t, since)).toEqual([]);

    const again = await clusterHandler.create(inputs);
    expect(again.id).not.toBe(created.id);
    expect(again.outs).toMatchObject({ name: created.outs.name, status: "ACTIVE", desiredCapacity: 2 });
    expect(await writesSince(t, since)).toEqual(["senlin:CreateCluster", "senlin:AttachClusterPolicy"]);
    expect((await clustersOf(t)).map((c) => [c.id, c.name, c.status, c.nodes.length, c.bindings.length])).toEqual([[again.id, created.outs.name, "ACTIVE", 2, 1]]);
  });
});

describe("senlin:Cluster replaced creating first without a new identity (`up --replace`)", () => {
  let t: TestPlane;
  beforeAll(async () => {
    ({ t } = await seededPlane({ timeScale: 0 }));
  });
  afterAll(async () => {
    await t.close();
  });

  it("refuses the create that finds the cluster it would replace, before any write", async () => {
    const raw = { ...identity, owner: "2222222222222222", profile: "small", desiredCapacity: 1 };
    const inputs = (await clusterHandler.check({}, raw)).inputs;
    const created = await clusterHandler.create(inputs);
    const createFirst = (await clusterHandler.check(inputs, { ...raw, deleteBeforeReplace: false })).inputs;
    const since = await lastSeq(t);
    await expect(clusterHandler.create(createFirst)).rejects.toThrow(
      /already exists, and with deleteBeforeReplace: false Clusterform cannot tell whether it is the object this run replaces[\s\S]*Remove `deleteBeforeReplace: false`/,
    );
    expect(await writesSince(t, since)).toEqual([]);
    expect((await clustersOf(t)).map((c) => c.id)).toEqual([created.id]);
  });
});

describe("senlin:Cluster created while its Keystone tokens expire", () => {
  let t: TestPlane;
  beforeAll(async () => {
    // Tokens live 2 s; the create, on the plane's real-time clock, outlasts one.
    ({ t } = await seededPlane({ clock: systemClock as never, timeScale: 1, platformOptions: { keystone: { tokenTtlSeconds: 2 } } }));
  });
  afterAll(async () => {
    await t.close();
  });

  it("renews the token and finishes: 4 nodes, both policies attached", async () => {
    const raw = { ...identity, owner: "1111111111111111", profile: "small", desiredCapacity: 4, maxSize: 4, policies: [{ policy: "deletion" }, { policy: "affinity" }] };
    const inputs = (await clusterHandler.check({}, raw)).inputs;
    const since = await lastSeq(t);
    const started = Date.now();
    const created = await clusterHandler.create(inputs);
    expect(Date.now() - started).toBeGreaterThan(2_000);
    expect(created.outs).toMatchObject({ status: "ACTIVE", desiredCapacity: 4 });
    const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: { seq: number; api: string; operation: string; code: string }[] };
    expect(entries.filter((e) => e.seq > since && e.api === "keystone" && e.operation === "CreateToken" && e.code === "OK").length).toBeGreaterThanOrEqual(2);
    expect(await writesSince(t, since)).toEqual(["senlin:CreateCluster", "senlin:AttachClusterPolicy", "senlin:AttachClusterPolicy"]);
    expect((await clustersOf(t)).map((c) => [c.id, c.status, c.nodes.length, c.bindings.length])).toEqual([[created.id, "ACTIVE", 4, 2]]);
  });
});

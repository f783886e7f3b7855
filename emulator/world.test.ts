import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ClusterStatus } from "../proto/gen/cmassh/api_pb";
import { senlinSession } from "./senlin/testing";
import type { SavedState } from "./state-file";
import { removeDataDirs, startTestPlane, type TestPlane } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let other: TestPlane | undefined;
afterEach(async () => {
  await t?.close();
  await other?.close();
  other = undefined;
});

const names = async (plane: TestPlane) => (await plane.cmassh.getClusterList({})).clusters.map((c) => c.name).sort();

describe("saving, loading and resetting the whole plane", () => {
  it("loads a saved plane into another one: objects, an operation in flight and the audit log", async () => {
    t = await startTestPlane();
    await t.cmassh.createCluster({ name: "settled", k8sVersion: "1.30.10" });
    t.clock.advance(3000);
    await t.cmassh.createCluster({ name: "in-flight", k8sVersion: "1.30.10" });
    t.clock.advance(1000);
    const senlin = await senlinSession(t);
    const { id: senlinCluster } = await senlin.createCluster("web", { desired_capacity: 2 });
    const saved = (await t.http("GET", "/_local/state")).body as SavedState;
    expect(saved).toMatchObject({ format: "clusterform-local-state", version: 1 });
    const audit = ((await t.http("GET", "/_local/audit")).body as { entries: unknown[] }).entries;

    other = await startTestPlane({ clock: t.clock });
    expect(await other.http("PUT", "/_local/state", saved)).toMatchObject({ status: 200 });
    expect(await names(other)).toEqual(["in-flight", "settled"]);
    expect((await other.cmassh.getCluster({ name: "in-flight" })).cluster!.status).toBe(ClusterStatus.PROVISIONING);
    t.clock.advance(2000);
    expect((await other.cmassh.getCluster({ name: "in-flight" })).cluster!.status).toBe(ClusterStatus.RUNNING);
    const otherSenlin = await senlinSession(other);
    expect((await otherSenlin.call("GET", `/v1/clusters/${senlinCluster}`)).body).toMatchObject({ cluster: { name: "web", desired_capacity: 2 } });
    const loadedAudit = ((await other.http("GET", "/_local/audit")).body as { entries: unknown[] }).entries;
    expect(loadedAudit.slice(0, audit.length)).toEqual(audit);
  });

  it("keeps ids and audit sequence numbers increasing after a load", async () => {
    t = await startTestPlane({ timeScale: 0 });
    await t.cmassh.createCluster({ name: "a" });
    const saved = (await t.http("GET", "/_local/state")).body as SavedState;
    const before = ((await t.http("GET", "/_local/audit")).body as { next: number }).next;
    await t.http("PUT", "/_local/state", saved);
    await t.cmassh.getCluster({ name: "a" });
    const entries = ((await t.http("GET", `/_local/audit?since=${before}`)).body as { entries: { seq: number }[] }).entries;
    expect(entries).toHaveLength(1);
    expect(entries[0].seq).toBe(before + 1);
  });

  it("resets to what a fresh start has: no objects, no audit, no faults, the CycleCloud cluster and the Peloton root back", async () => {
    t = await startTestPlane({ timeScale: 0 });
    await t.cmassh.createCluster({ name: "a" });
    expect((await t.http("DELETE", "/_local/cyclecloud/clusters?name=demo")).status).toBe(200);
    expect(((await t.http("GET", "/_local/cyclecloud/clusters")).body as { clusters: unknown[] }).clusters).toEqual([]);
    await t.http("POST", "/_local/faults", { action: "error", operation: "GetCluster" });
    expect(await t.http("POST", "/_local/reset")).toMatchObject({ status: 200 });
    expect(await names(t)).toEqual([]);
    expect(((await t.http("GET", "/_local/faults")).body as { faults: unknown[] }).faults).toEqual([]);
    const audit = ((await t.http("GET", "/_local/audit")).body as { entries: { operation: string }[] }).entries;
    expect(audit.map((e) => e.operation)).toEqual(["GetClusterList"]);
    const clusters = (await t.http("GET", "/_local/cyclecloud/clusters")).body as { clusters: { name: string }[] };
    expect(clusters.clusters.map((c) => c.name)).toEqual(["demo"]);
    const pools = (await t.http("GET", "/_local/peloton/respools")).body as { respools: { path: string }[] };
    expect(pools.respools.map((p) => p.path)).toEqual(["/"]);
  });

  it("keeps a Keystone token issued before a reset valid", async () => {
    t = await startTestPlane({ timeScale: 0 });
    const senlin = await senlinSession(t);
    await t.http("POST", "/_local/reset");
    expect((await senlin.call("GET", "/v1/clusters")).status).toBe(200);
  });

  it.each([
    ["not JSON", "{", "invalid saved state: not JSON"],
    ["another format", { format: "x", version: 1, savedAt: "", tables: {} }, 'invalid saved state: field "format"'],
    [
      "an unknown table",
      { format: "clusterform-local-state", version: 1, savedAt: "", tables: { nope: { columns: ["a"], rows: [] } } },
      'table "nope" is not one this plane has',
    ],
    [
      "an unknown column",
      { format: "clusterform-local-state", version: 1, savedAt: "", tables: { cmassh_pools: { columns: ["colour"], rows: [] } } },
      'table "cmassh_pools" has column "colour"',
    ],
  ])("refuses a saved plane with %s, changing nothing", async (_label, body, message) => {
    t = await startTestPlane({ timeScale: 0 });
    await t.cmassh.createCluster({ name: "kept" });
    const response = await t.http("PUT", "/_local/state", body);
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toContain(message);
    expect(await names(t)).toEqual(["kept"]);
  });
});

import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { systemClock } from "../../../emulator/clock";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import type { ConfigReader } from "../../core/config";
import { PartialStateError } from "../../core/contract";
import { Deadline } from "../../core/deadline";

import { vclusterClient } from "./common";
import { waitForPhase } from "./wait";
import { pollIntervalMs } from "../../core/wait";
import { vclusterSnapshot } from "./snapshot/kind";
import { vclusterVCluster } from "./vcluster/kind";
import { testHandler } from "../testing";

const snapshotHandler = testHandler(vclusterSnapshot);
const vclusterHandler = testHandler(vclusterVCluster);

type Props = Record<string, unknown>;
afterAll(removeDataDirs);

const OWNER = "0123456789abcdef";
const base: Props = { __provider: "p", owner: OWNER, resourceName: "dev", name: "dev", namespace: "team-a" };
const ref = { name: "dev", namespace: "team-a" };
/** Writes are what the field table counts; reads and watches are waiting. */
const READS = new Set(["GetVCluster", "ListVClusters", "WatchVCluster", "GetSnapshot", "ListSnapshots", "GetVClusterKubeconfig"]);

let t: TestPlane;
let config: ConfigReader;

/** The plane at time scale 0.25: a create takes 500 ms (waits surely start before it ends), a restore 750 ms. */
beforeEach(async () => {
  t = await startTestPlane({ clock: systemClock as never, timeScale: 0.25 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  await vclusterHandler.configure(config);
  await snapshotHandler.configure(config);
});
afterEach(async () => {
  (await vclusterClient(config)).close();
  await t.close();
});

async function writes(): Promise<string[]> {
  const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: { api: string; operation: string }[] };
  return entries.filter((e) => e.api === "vcluster" && !READS.has(e.operation)).map((e) => e.operation);
}

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await vclusterHandler.check(olds, news);
  expect(failures).toEqual([]);
  return inputs;
}

describe("vcluster resources against the local control plane", () => {
  it("creates, waits through the watch and records the outputs with the kubeconfig", async () => {
    const inputs = await checked({ ...base, replicas: 3, labels: { env: "dev" } });
    const { id, outs } = await vclusterHandler.create(inputs);
    expect(id).toMatch(/^vc-/);
    expect(outs).toMatchObject({ phase: "RUNNING", readyReplicas: 3, apiServerEndpoint: "https://dev.team-a.svc:443", vclusterId: id });
    expect(outs.kubeconfig).toMatch(/^apiVersion: v1\n/);
    expect(await writes()).toEqual(["CreateVCluster"]);
  });

  it("notices completion through the watch faster than the poll interval of a 500 ms operation would", async () => {
    const client = await vclusterClient(config);
    await client.createVCluster({ ...ref, spec: {} });
    const outcome = await waitForPhase(client, ref, ["RUNNING"], new Deadline(10_000));
    const lagMs = Date.now() - Date.parse(outcome.state!.readyTime);
    expect(outcome.via).toBe("watch");
    // Polling would notice up to one interval late: pollIntervalMs(500) is 200 ms.
    expect(lagMs).toBeLessThan(pollIntervalMs(500));
  });

  it("falls back to polling when the watch breaks mid-wait and still sees RUNNING", async () => {
    const client = await vclusterClient(config);
    await client.createVCluster({ ...ref, spec: {} });
    await t.http("POST", "/_local/faults", { api: "vcluster", action: "break-watch", message: "connection reset by peer" });
    const outcome = await waitForPhase(client, ref, ["RUNNING"], new Deadline(10_000));
    expect([outcome.via, outcome.state?.phase]).toEqual(["poll", "RUNNING"]);
  });

  it("resumes, then scales, when one update clears suspended and raises replicas", async () => {
    const olds = await checked({ ...base, suspended: true });
    const { id, outs } = await vclusterHandler.create(olds);
    expect(outs.phase).toBe("SUSPENDED");
    const news = await checked({ ...base, suspended: false, replicas: 3 }, olds);
    const updated = await vclusterHandler.update(id, { ...olds, ...outs }, news);
    expect(updated.outs).toMatchObject({ phase: "RUNNING", readyReplicas: 3 });
    expect(await writes()).toEqual(["CreateVCluster", "SuspendVCluster", "ResumeVCluster", "ScaleVCluster"]);
  });

  it("sends one UpdateVCluster whose mask names exactly the changed fields", async () => {
    const olds = await checked(base);
    const { id, outs } = await vclusterHandler.create(olds);
    const news = await checked({ ...base, kubernetesVersion: "1.29.1", labels: { env: "dev" } }, olds);
    await vclusterHandler.update(id, { ...olds, ...outs }, news);
    const { updates } = (await t.http("GET", "/_local/vcluster/update-masks")).body as { updates: { paths: string[] }[] };
    expect(updates.map((u) => u.paths)).toEqual([["spec.kubernetes_version", "labels"]]);
  });

  it("adopts the vcluster an interrupted create left behind instead of creating another", async () => {
    const inputs = await checked(base);
    const first = await vclusterHandler.create(inputs);
    const again = await vclusterHandler.create(inputs);
    expect(again.id).toBe(first.id);
    expect(await writes()).toEqual(["CreateVCluster"]);
  });

  it("adopts a vcluster an interrupted run left CREATING, and waits until it runs", async () => {
    // What a killed run leaves: this resource's CreateVCluster accepted, the vcluster still creating.
    const inputs = await checked({ ...base, replicas: 3 });
    const client = await vclusterClient(config);
    await client.createVCluster({ ...ref, spec: { replicas: 3 }, labels: { "clusterform.dev/owner": OWNER } });
    expect((await client.getVCluster(ref)).phase).toBe("CREATING");
    const { id, outs } = await vclusterHandler.create(inputs);
    expect(outs).toMatchObject({ phase: "RUNNING", readyReplicas: 3, vclusterId: id });
    expect(await writes()).toEqual(["CreateVCluster"]);
  });

  it("refuses a create-first replacement that finds the vcluster it would replace (`up --replace`), before any write", async () => {
    const inputs = await checked(base);
    const first = await vclusterHandler.create(inputs);
    const createFirst = await checked({ ...base, deleteBeforeReplace: false }, inputs);
    await expect(vclusterHandler.create(createFirst)).rejects.toThrow(
      /already exists, and with deleteBeforeReplace: false Clusterform cannot tell whether it is the object this run replaces[\s\S]*Remove `deleteBeforeReplace: false`/,
    );
    expect(await writes()).toEqual(["CreateVCluster"]);
    expect((await (await vclusterClient(config)).getVCluster(ref)).id).toBe(first.id);
  });

  it("refuses a vcluster of the same name that this resource did not create", async () => {
    await (await vclusterClient(config)).createVCluster({ ...ref, spec: {} });
    await expect(vclusterHandler.create(await checked(base))).rejects.toThrow(
      /^CreateVCluster vcluster "team-a\/dev": ALREADY_EXISTS: a vcluster of that name already exists in that namespace and this stack did not create it/,
    );
  });

  it("snapshots a vcluster and restores a new vcluster from it with this resource's labels", async () => {
    const source = await vclusterHandler.create(await checked({ ...base, replicas: 2 }));
    const snapInputs = (await snapshotHandler.check({}, { __provider: "p", owner: "fedcba9876543210", resourceName: "nightly", vclusterName: "dev", namespace: "team-a" })).inputs;
    const snap = await snapshotHandler.create(snapInputs);
    expect(snap.outs).toMatchObject({ status: "READY", vclusterId: source.id });
    const restored = await vclusterHandler.create(await checked({ ...base, owner: "1111111111111111", name: "dev-copy", restoreFrom: snap.id }));
    expect(restored.outs).toMatchObject({ phase: "RUNNING", readyReplicas: 2 });
    const live = await (await vclusterClient(config)).getVCluster({ name: "dev-copy", namespace: "team-a" });
    expect(live.labels).toEqual({ "clusterform.dev/owner": "1111111111111111" });
    expect(await writes()).toEqual(["CreateVCluster", "SnapshotVCluster", "RestoreVCluster", "UpdateVCluster"]);
    await snapshotHandler.delete(snap.id, snap.outs);
    expect(await snapshotHandler.read(snap.id, snap.outs)).toEqual({ id: "", props: {} });
  });

  it("records a vcluster whose creation ends in ERROR, and fails the engine's retry of it again", async () => {
    await t.http("POST", "/_local/faults", { api: "vcluster", operation: "CreateVCluster", action: "fail-operation", message: "host out of memory" });
    const inputs = await checked(base);
    const error = (await vclusterHandler.create(inputs).catch((e: unknown) => e)) as PartialStateError;
    expect(error).toBeInstanceOf(PartialStateError);
    expect([error.id, error.properties.phase, error.reasons]).toEqual([
      expect.stringMatching(/^vc-/),
      "ERROR",
      [expect.stringMatching(/is in ERROR \(CreateFailed\): host out of memory$/)],
    ]);
    await expect(vclusterHandler.update(error.id, error.properties, inputs)).rejects.toThrow(/is in ERROR \(CreateFailed\): host out of memory/);
    expect(await writes()).toEqual(["CreateVCluster"]);
    // Recorded, it is the resource's: delete removes it.
    await vclusterHandler.delete(error.id, error.properties);
    expect((await t.http("GET", "/_local/vcluster/vclusters")).body).toEqual({ vclusters: [] });
  });

  it("snapshots and drains before suspending, sending the suspend options", async () => {
    const olds = await checked(base);
    const { id, outs } = await vclusterHandler.create(olds);
    const suspendOptions = { drainWorkloads: true, drainTimeout: "1m", createSnapshot: true, snapshotName: "before-pause" };
    const updated = await vclusterHandler.update(id, { ...olds, ...outs }, await checked({ ...base, suspended: true, suspendOptions }, olds));
    expect(updated.outs).toMatchObject({ phase: "SUSPENDED", readyReplicas: 0 });
    const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: { operation: string; request?: unknown }[] };
    expect(entries.filter((e) => e.operation === "SuspendVCluster").map((e) => e.request)).toEqual([
      { ...ref, drainWorkloads: true, drainTimeoutSeconds: 60, createSnapshot: true, snapshotName: "before-pause" },
    ]);
    const { items } = await (await vclusterClient(config)).listSnapshots({ vclusterName: "dev", namespace: "team-a" });
    expect(items.map((s) => [s.name, s.status])).toEqual([["before-pause", "READY"]]);
  });

  it("fails a suspend whose drain times out, naming the vcluster, the call and the platform's message, and records it running", async () => {
    const olds = await checked({ ...base, suspended: false });
    const { id, outs } = await vclusterHandler.create(olds);
    await t.http("POST", "/_local/vcluster/workloads", { ...ref, pods: 10 });
    const news = await checked({ ...base, suspended: true, suspendOptions: { drainWorkloads: true, drainTimeout: "3s" } }, olds);
    const error = (await vclusterHandler.update(id, { ...olds, ...outs }, news).catch((e: unknown) => e)) as PartialStateError;
    expect(error).toBeInstanceOf(PartialStateError);
    expect(error.message).toBe(
      'waiting for vcluster "team-a/dev" to be SUSPENDED after SuspendVCluster: TERMINAL_STATE: vcluster "team-a/dev" was not suspended (DrainTimeout): ' +
        "drain timed out after 3s with 9 of 10 pods not evicted: the vcluster was not suspended and keeps running, and the 1 evicted pods are scheduled again",
    );
    expect([error.properties.suspended, error.properties.phase]).toEqual([false, "RUNNING"]);
  });

  it("records a vcluster created suspended whose drain timed out as running, not suspended", async () => {
    // A new vcluster runs 2 pods, 4 simulated seconds of evictions: a 1 s drain times out.
    const inputs = await checked({ ...base, suspended: true, suspendOptions: { drainWorkloads: true, drainTimeout: "1s" } });
    const error = (await vclusterHandler.create(inputs).catch((e: unknown) => e)) as PartialStateError;
    expect(error).toBeInstanceOf(PartialStateError);
    expect(error.message).toMatch(/was not suspended \(DrainTimeout\): drain timed out after 1s/);
    expect([error.properties.suspended, error.properties.phase]).toEqual([false, "RUNNING"]);
  });

  it("deletes and waits until the vcluster is gone", async () => {
    const { id, outs } = await vclusterHandler.create(await checked(base));
    await vclusterHandler.delete(id, outs);
    expect(await vclusterHandler.read(id, outs)).toEqual({ id: "", props: {} });
  });
});

import { Code } from "@connectrpc/connect";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Phase } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { removeDataDirs } from "../testing";
import { codeOf, errorOf, startVclusterPlane, type VclusterTestPlane } from "./testing";

afterAll(removeDataDirs);

let t: VclusterTestPlane;
afterEach(async () => {
  await t?.close();
});

const ns = "team-a";

async function phaseOf(name: string, namespace = ns): Promise<Phase> {
  return (await t.vc.getVCluster({ name, namespace })).vcluster!.status!.phase;
}

describe("vcluster lifecycle (fake clock, time scale 1)", () => {
  it("is CREATING for 2 s with condition Initialized, then RUNNING with endpoint and replicas", async () => {
    t = await startVclusterPlane();
    const created = await t.vc.createVCluster({ name: "dev", namespace: ns });
    expect(created.operationId).toMatch(/^op-1700000000-\d+$/);
    expect(created.vcluster).toMatchObject({ name: "dev", namespace: ns, spec: { kubernetesVersion: "1.28.0", distro: "k3s", replicas: 1 } });
    expect(created.vcluster!.id).toMatch(/^vc-1700000000-\d+$/);
    expect(created.vcluster!.status).toMatchObject({ phase: Phase.CREATING, readyReplicas: 0, totalReplicas: 1, apiServerEndpoint: "" });
    expect(created.vcluster!.status!.conditions.map((c) => [c.type, c.status])).toEqual([["Initialized", "True"]]);
    t.clock.advance(1999);
    expect(await phaseOf("dev")).toBe(Phase.CREATING);
    t.clock.advance(1);
    const running = (await t.vc.getVCluster({ name: "dev", namespace: ns })).vcluster!;
    expect(running.status).toMatchObject({ phase: Phase.RUNNING, readyReplicas: 1, totalReplicas: 1, apiServerEndpoint: "https://dev.team-a.svc:443", kubeconfig: "" });
    expect(running.status!.conditions.map((c) => [c.type, c.status])).toEqual([["Initialized", "True"], ["Ready", "True"]]);
  });

  it("multiplies durations by the time scale", async () => {
    t = await startVclusterPlane({ timeScale: 0.5 });
    await t.vc.createVCluster({ name: "dev", namespace: ns });
    t.clock.advance(999);
    expect(await phaseOf("dev")).toBe(Phase.CREATING);
    t.clock.advance(1);
    expect(await phaseOf("dev")).toBe(Phase.RUNNING);
  });

  it("defaults an empty namespace to \"default\" on create only, as the reference server does", async () => {
    t = await startVclusterPlane();
    expect((await t.vc.createVCluster({ name: "dev" })).vcluster!.namespace).toBe("default");
    expect(await codeOf(t.vc.getVCluster({ name: "dev" }))).toBe(Code.NotFound);
    expect(await codeOf(t.vc.getVCluster({ name: "dev", namespace: "default" }))).toBe("OK");
  });

  it("puts the kubeconfig in GetVCluster only when asked and only while RUNNING", async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ name: "dev", namespace: ns });
    expect((await t.vc.getVCluster({ name: "dev", namespace: ns, includeKubeconfig: true })).vcluster!.status!.kubeconfig).toBe("");
    t.clock.advance(2000);
    expect((await t.vc.getVCluster({ name: "dev", namespace: ns })).vcluster!.status!.kubeconfig).toBe("");
    const encoded = (await t.vc.getVCluster({ name: "dev", namespace: ns, includeKubeconfig: true })).vcluster!.status!.kubeconfig;
    const yaml = Buffer.from(encoded, "base64").toString("utf8");
    expect(yaml).toContain("server: https://dev.team-a.svc:443\n");
    expect(yaml).toMatch(/token: [0-9a-f]{64}\n/);
  });

  it("finds a vcluster by id", async () => {
    t = await startVclusterPlane();
    const { vcluster } = await t.vc.createVCluster({ name: "dev", namespace: ns });
    expect((await t.vc.getVCluster({ id: vcluster!.id })).vcluster!.name).toBe("dev");
    expect(await codeOf(t.vc.getVCluster({ id: "vc-0-0" }))).toBe(Code.NotFound);
  });

  it.each([
    [{ name: "" }, 'name is required'],
    [{ name: "Dev_1" }, 'invalid name "Dev_1": must be a DNS-1123 label'],
    [{ name: "dev", namespace: "Team" }, 'invalid namespace "Team": must be a DNS-1123 label'],
    [{ name: "dev", spec: { distro: "k9s" } }, 'invalid spec.distro "k9s": allowed: "k3s", "k8s", "k0s", "eks"'],
    [{ name: "dev", spec: { isolationMode: "half" } }, 'invalid spec.isolation_mode "half": allowed: "", "full", "lite"'],
    [{ name: "dev", spec: { replicas: -1 } }, "invalid spec.replicas -1: must be 0 (default 1) or more"],
    [{ name: "dev", spec: { kubernetesVersion: "latest" } }, 'invalid spec.kubernetes_version "latest": must be x.y.z, e.g. 1.28.0'],
    [{ name: "dev", labels: { "bad key!": "x" } }, 'invalid labels key "bad key!"'],
  ])("rejects create %j with INVALID_ARGUMENT and stores nothing", async (request, message) => {
    t = await startVclusterPlane();
    const error = await errorOf(t.vc.createVCluster(request));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage.startsWith(message)).toBe(true);
    expect((await t.vc.listVClusters({})).totalCount).toBe(0);
  });

  it("answers a duplicate namespace/name with ALREADY_EXISTS", async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ name: "dev", namespace: ns });
    const error = await errorOf(t.vc.createVCluster({ name: "dev", namespace: ns }));
    expect([error.code, error.rawMessage]).toEqual([Code.AlreadyExists, 'vcluster "team-a/dev" already exists']);
    expect(await codeOf(t.vc.createVCluster({ name: "dev", namespace: "other" }))).toBe("OK");
  });

  it("answers a repeated request_id with the first answer and creates nothing more", async () => {
    t = await startVclusterPlane();
    const first = await t.vc.createVCluster({ name: "dev", namespace: ns, requestId: "req-1" });
    t.clock.advance(5000);
    const again = await t.vc.createVCluster({ name: "dev", namespace: ns, requestId: "req-1" });
    expect(again).toEqual(first);
    expect((await t.vc.listVClusters({})).totalCount).toBe(1);
    const reused = await errorOf(t.vc.createVCluster({ name: "other", namespace: ns, requestId: "req-1" }));
    expect(reused.code).toBe(Code.InvalidArgument);
    expect(reused.rawMessage).toContain('was already used to create vcluster "team-a/dev"');
  });

  it("forgets a request_id after 24 h", async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ name: "dev", namespace: ns, requestId: "req-1" });
    t.clock.advance(24 * 3_600_000);
    expect(await codeOf(t.vc.createVCluster({ name: "dev", namespace: ns, requestId: "req-1" }))).toBe(Code.AlreadyExists);
  });

  it("is DELETING for 1 s with a delete time, then NOT_FOUND", async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ name: "dev", namespace: ns });
    t.clock.advance(2000);
    const reply = await t.vc.deleteVCluster({ name: "dev", namespace: ns });
    expect(reply.operationId).toMatch(/^op-/);
    expect(reply.deleteTime).toEqual(expect.objectContaining({ seconds: 1_700_000_002n }));
    const deleting = (await t.vc.getVCluster({ name: "dev", namespace: ns })).vcluster!;
    expect(deleting.status!.phase).toBe(Phase.DELETING);
    expect(deleting.deleteTime!.seconds).toBe(1_700_000_002n);
    expect(await codeOf(t.vc.deleteVCluster({ name: "dev", namespace: ns }))).toBe(Code.FailedPrecondition);
    t.clock.advance(1000);
    expect(await codeOf(t.vc.getVCluster({ name: "dev", namespace: ns }))).toBe(Code.NotFound);
  });

  it("adds the grace period to the deletion", async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ name: "dev", namespace: ns });
    t.clock.advance(2000);
    await t.vc.deleteVCluster({ name: "dev", namespace: ns, gracePeriodSeconds: 5 });
    t.clock.advance(5999);
    expect(await phaseOf("dev")).toBe(Phase.DELETING);
    t.clock.advance(1);
    expect(await codeOf(t.vc.getVCluster({ name: "dev", namespace: ns }))).toBe(Code.NotFound);
  });

  it("refuses to delete a CREATING vcluster without force, and deletes it with force", async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ name: "dev", namespace: ns });
    const error = await errorOf(t.vc.deleteVCluster({ name: "dev", namespace: ns }));
    expect([error.code, error.rawMessage]).toEqual([
      Code.FailedPrecondition,
      'cannot delete (without force) vcluster "team-a/dev" in phase CREATING: allowed in RUNNING, SUSPENDED, ERROR',
    ]);
    await t.vc.deleteVCluster({ name: "dev", namespace: ns, force: true });
    // The create that was under way does not bring the cluster back to RUNNING.
    t.clock.advance(1000);
    expect(await codeOf(t.vc.getVCluster({ name: "dev", namespace: ns }))).toBe(Code.NotFound);
  });

  it("ends a create in ERROR when a fail-operation fault matches, and still deletes it", async () => {
    t = await startVclusterPlane();
    await t.http("POST", "/_local/faults", { api: "vcluster", operation: "CreateVCluster", action: "fail-operation", message: "helm install failed" });
    await t.vc.createVCluster({ name: "dev", namespace: ns });
    t.clock.advance(2000);
    const status = (await t.vc.getVCluster({ name: "dev", namespace: ns })).vcluster!.status!;
    expect(status).toMatchObject({ phase: Phase.ERROR, reason: "CreateFailed", message: "helm install failed", apiServerEndpoint: "" });
    await t.vc.deleteVCluster({ name: "dev", namespace: ns });
    t.clock.advance(1000);
    expect(await codeOf(t.vc.getVCluster({ name: "dev", namespace: ns }))).toBe(Code.NotFound);
  });

  it("records every call in the audit log under api vcluster with namespace/name targets", async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ name: "dev", namespace: ns }, { headers: { "x-request-id": "rid-1" } });
    await codeOf(t.vc.getVCluster({ name: "ghost", namespace: ns }));
    const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: Record<string, string>[] };
    expect(entries.map((e) => [e.api, e.operation, e.target, e.code])).toEqual([
      ["vcluster", "CreateVCluster", "team-a/dev", "OK"],
      ["vcluster", "GetVCluster", "team-a/ghost", "NOT_FOUND"],
    ]);
    expect(entries[0].requestId).toBe("rid-1");
  });

  it("keeps every vcluster and operation in flight across a restart", async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ name: "dev", namespace: ns });
    t.clock.advance(1500);
    await t.close();
    t = await startVclusterPlane({ dataDir: t.dataDir, clock: t.clock });
    expect(await phaseOf("dev")).toBe(Phase.CREATING);
    t.clock.advance(500);
    expect(await phaseOf("dev")).toBe(Phase.RUNNING);
  });
});

describe("create with wait_for_ready", () => {
  it("answers only once the vcluster is RUNNING", async () => {
    t = await startVclusterPlane();
    let answered = false;
    const pending = t.vc.createVCluster({ name: "dev", namespace: ns, waitForReady: true }).then((reply) => {
      answered = true;
      return reply;
    });
    // The create is audited (and so stored) before its answer is held back.
    await expect.poll(async () => ((await t.http("GET", "/_local/audit")).body as { entries: unknown[] }).entries.length).toBe(1);
    expect(answered).toBe(false);
    t.clock.advance(2000);
    const reply = await pending;
    expect(reply.vcluster!.status!.phase).toBe(Phase.RUNNING);
  });

  it("answers with the state at the timeout when the vcluster is not ready by then", async () => {
    t = await startVclusterPlane();
    const reply = await t.vc.createVCluster({ name: "dev", namespace: ns, waitForReady: true, timeoutSeconds: 1 });
    expect(reply.vcluster!.status!.phase).toBe(Phase.CREATING);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { openTestStack, type TestStack } from "../harness/cmassh-stack";
import type { AuditEntry } from "../harness/local-plane";

const creates = (entries: AuditEntry[]) => entries.filter((e) => e.operation === "CreateVCluster" && e.code === "OK");

interface View {
  name: string;
  phase: string;
  replicas: { desired: number };
}

describe("vcluster under faults: state stays true, nothing orphaned, nothing duplicated", () => {
  let t: TestStack | undefined;
  const vclusters = async () => (await t!.plane.admin<{ vclusters: View[] }>("/_local/vcluster/vclusters")).vclusters;
  const open = (timeScale: number, config?: Record<string, string>) =>
    openTestStack({ program: "vcluster", timeScale, config });

  afterEach(async () => {
    await t?.plane.stop();
    t = undefined;
  });

  it("retries transient failures: the next 3 calls answer UNAVAILABLE and up still succeeds", async () => {
    t = await open(0.2);
    await t.configure({ vc: { namespace: "team-a" } });
    await t.plane.addFault({ api: "vcluster", count: 3, action: "error", code: "UNAVAILABLE" });
    const result = await t.stack.up();
    expect(result.outputs.phase).toBe("RUNNING");
    const audit = await t.plane.audit();
    expect(audit.slice(0, 3).map((e) => e.code)).toEqual(["UNAVAILABLE", "UNAVAILABLE", "UNAVAILABLE"]);
    expect(creates(audit)).toHaveLength(1);
    expect(await vclusters()).toHaveLength(1);
  });

  it("fails a permanent error clearly, naming the resource, the call and the platform's message, and keeps the state true", async () => {
    t = await open(0.1);
    await t.configure({ vc: { namespace: "team-a", name: "dev", replicas: 1 } });
    await t.stack.up();
    // A refusal that sending again cannot change (RESOURCE_EXHAUSTED, "not carried out", is sent again
    // by the call policy, core/call-policy.ts, so it is no permanent error).
    await t.plane.addFault({ api: "vcluster", operation: "ScaleVCluster", action: "error", code: "FAILED_PRECONDITION", message: "quota of 4 control plane replicas reached" });
    await t.configure({ vc: { namespace: "team-a", name: "dev", replicas: 5, labels: { env: "dev" } } });
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/vcluster:VCluster main/);
    expect(failure).toContain('ScaleVCluster vcluster "team-a/dev": FAILED_PRECONDITION: quota of 4 control plane replicas reached');
    // The label update before the scale landed and is recorded; the scale did not and is not.
    const state = await t.stack.exportState();
    const main = (state.deployment.resources ?? []).find((r: { type: string }) => r.type.endsWith("vcluster:VCluster"));
    expect([main?.outputs?.replicas, main?.outputs?.labels]).toEqual([1, { env: "dev" }]);
    expect((await vclusters()).map((v) => v.replicas.desired)).toEqual([1]);
    // The next up retries only the scale.
    const since = await t.plane.lastSeq();
    await t.stack.up();
    expect((await t.plane.audit(since)).filter((e) => !["GetVCluster", "WatchVCluster"].includes(e.operation)).map((e) => e.operation)).toEqual(["ScaleVCluster"]);
    expect((await vclusters()).map((v) => v.replicas.desired)).toEqual([5]);
  });

  it("records a vcluster whose creation ends in ERROR, fails clearly, and never orphans or duplicates it", async () => {
    t = await open(0.1);
    await t.configure({ vc: { namespace: "team-a" } });
    await t.plane.addFault({ api: "vcluster", operation: "CreateVCluster", action: "fail-operation", message: "host cluster out of memory" });
    await expect(t.stack.up()).rejects.toThrow(/is in ERROR \(CreateFailed\): host cluster out of memory/);
    const state = await t.stack.exportState();
    const main = (state.deployment.resources ?? []).find((r: { type: string }) => r.type.endsWith("vcluster:VCluster"));
    expect(main?.outputs?.phase).toBe("ERROR");
    expect(String(main?.outputs?.__provider)).toContain("clusterform/provider");
    await expect(t.stack.up()).rejects.toThrow(/is in ERROR/);
    expect(creates(await t.plane.audit())).toHaveLength(1);
    await t.stack.destroy();
    expect(await vclusters()).toEqual([]);
  });

  it("completes an up while the local control plane restarts mid-creation", async () => {
    t = await open(1);
    await t.configure({ vc: { namespace: "team-a" } });
    const plane = t.plane;
    const up = t.stack.up();
    await expect.poll(async () => creates(await plane.audit()).length, { timeout: 60_000, interval: 50 }).toBe(1);
    await plane.restart();
    const result = await up;
    expect(result.outputs.phase).toBe("RUNNING");
    expect(creates(await plane.audit())).toHaveLength(1);
    expect((await vclusters()).map((v) => v.phase)).toEqual(["RUNNING"]);
  });

  it("fails within clusterform:unreachableTimeout against an endpoint nothing listens on, naming the address", async () => {
    t = await open(0.1, { "clusterform:unreachableTimeout": "3s" });
    await t.configure({ vc: { namespace: "team-a" } });
    // A privileged port nothing here listens on and no server takes (the stopped plane's own port
    // can be taken at once by a server another test file starts, which then answers instead).
    const address = "http://127.0.0.1:2"; // not 9: fetch refuses the discard port
    await t.stack.setConfig("clusterform:endpoint", address);
    await t.plane.stop();
    const started = Date.now();
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(new RegExp(`GetVCluster vcluster "team-a/main-[0-9a-f]{7}": UNREACHABLE: cannot reach ${address.replace(/\./g, "\\.")}`));
    expect(failure).toMatch(/giving up \(limit 3s, set by clusterform:unreachableTimeout\)/);
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});

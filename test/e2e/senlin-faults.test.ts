import { afterEach, describe, expect, it } from "vitest";
import { spawnCli } from "../harness/engine";
import type { AuditEntry } from "../harness/local-plane";
import { killTree } from "../harness/processes";
import { openSenlinStack, type SenlinStack, senlinClusters, senlinMutations } from "../harness/senlin-stack";

const creates = (entries: AuditEntry[]) => entries.filter((e) => e.api === "senlin" && e.operation === "CreateCluster" && e.code === "OK");
const senlinResources = async (t: SenlinStack) =>
  ((await t.stack.exportState()).deployment.resources ?? []).filter((r: { type: string }) => r.type.endsWith("senlin:Cluster"));

describe("senlin under faults: state stays true, nothing orphaned, nothing duplicated", () => {
  let t: SenlinStack | undefined;

  afterEach(async () => {
    await t?.plane.stop();
    t = undefined;
  });

  it("retries transient failures: the next 3 Senlin calls answer 503 and up still succeeds", async () => {
    t = await openSenlinStack({ timeScale: 0.1 });
    await t.configure({ cluster: { profile: "web-profile", desiredCapacity: 1 } });
    await t.plane.addFault({ api: "senlin", count: 3, action: "error", code: "UNAVAILABLE" });
    const result = await t.stack.up();
    expect(result.outputs.status).toBe("ACTIVE");
    const audit = (await t.plane.audit(t.seeded)).filter((e) => e.api === "senlin");
    // The first look at Senlin (its version document, then the cluster list) meets the 503s.
    expect(audit.slice(0, 3).map((e) => e.code)).toEqual(Array(3).fill("UNAVAILABLE"));
    expect(audit.slice(0, 3).every((e) => ["ListVersions", "ListClusters"].includes(e.operation))).toBe(true);
    expect(creates(audit)).toHaveLength(1);
    expect(await senlinClusters(t.plane)).toHaveLength(1);
  });

  it("fails a resize whose action FAILED with the action's reason, and keeps the old size in the state", async () => {
    t = await openSenlinStack({ timeScale: 0.1 });
    await t.configure({ cluster: { profile: "web-profile", desiredCapacity: 1 } });
    const { outputs } = await t.stack.up();
    await t.plane.addFault({ api: "senlin", operation: "ResizeCluster", action: "fail-operation", message: "no valid host was found for 3 servers" });
    await t.configure({ cluster: { profile: "web-profile", desiredCapacity: 3 } });
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(new RegExp(`waiting for ResizeCluster cluster "${outputs.id}" \\(action [0-9a-f-]+\\) to succeed: TERMINAL_STATE: CLUSTER_RESIZE ended FAILED: no valid host was found for 3 servers`));
    const [state] = await senlinResources(t);
    expect([state.outputs?.desiredCapacity, state.outputs?.status]).toEqual([1, "ERROR"]);
    // The next up plans the resize again, and it succeeds now that the fault is spent.
    expect((await t.stack.preview()).steps.filter((s) => s.name === "main").map((s) => s.op)).toEqual(["update"]);
    await t.stack.up();
    expect((await senlinClusters(t.plane))[0].desired_capacity).toBe(3);
    await t.stack.destroy();
    expect(await senlinClusters(t.plane)).toEqual([]);
  });

  it("records a cluster whose create action FAILED, fails clearly, and never orphans or duplicates it", async () => {
    t = await openSenlinStack({ timeScale: 0.1 });
    await t.configure({ cluster: { profile: "web-profile", desiredCapacity: 2 } });
    await t.plane.addFault({ api: "senlin", operation: "CreateCluster", action: "fail-operation", message: "quota exceeded for instances" });
    await expect(t.stack.up()).rejects.toThrow(/CLUSTER_CREATE ended FAILED: quota exceeded for instances/);
    const [recorded] = await senlinResources(t);
    expect(String(recorded?.outputs?.__provider)).toContain("clusterform/provider");
    expect(recorded?.initErrors?.[0]).toMatch(/quota exceeded for instances/);
    await expect(t.stack.up()).rejects.toThrow(/is in ERROR/);
    expect(creates(await t.plane.audit())).toHaveLength(1);
    await t.stack.destroy();
    expect(await senlinClusters(t.plane)).toEqual([]);
  });

  it("fails within clusterform:unreachableTimeout against an address nothing listens on, naming it", async () => {
    t = await openSenlinStack({ timeScale: 0.1, config: { "clusterform:unreachableTimeout": "3s" } });
    await t.configure({ cluster: { profile: "web-profile" } });
    // A privileged port nothing here listens on and no server takes (the stopped plane's own port can be
    // taken at once by a server another test file starts, which then answers instead); not 9: fetch
    // refuses the discard port.
    const port = 2;
    await t.stack.setConfig("clusterform:endpoint", `http://127.0.0.1:${port}`);
    await t.plane.stop();
    const started = Date.now();
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(new RegExp(`UNREACHABLE: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
    expect(failure).toMatch(/giving up \(limit 3s, set by clusterform:unreachableTimeout\)/);
    expect(Date.now() - started).toBeLessThan(120_000);
  });

  it("completes an up while the local control plane restarts in the middle of the create action", async () => {
    t = await openSenlinStack({ timeScale: 1 });
    await t.configure({ cluster: { profile: "web-profile", desiredCapacity: 2 } });
    const plane = t.plane;
    const up = t.stack.up();
    await expect.poll(async () => creates(await plane.audit()).length, { timeout: 60_000, interval: 100 }).toBe(1);
    await plane.restart();
    const result = await up;
    expect(result.outputs.status).toBe("ACTIVE");
    expect(creates(await plane.audit())).toHaveLength(1);
    expect((await senlinClusters(plane)).map((c) => c.status)).toEqual(["ACTIVE"]);
  });

  it("adopts what an interrupted up created through its metadata marker: killed mid-create, the next up converges with one CreateCluster", async () => {
    t = await openSenlinStack({ timeScale: 1 });
    await t.configure({ cluster: { profile: "web-profile", desiredCapacity: 2, policies: [{ policy: "deletion" }] } });
    const plane = t.plane;
    const cli = spawnCli(t.programDir, ["up", "--yes", "--skip-preview", "--stack", t.stack.stack.name]);
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    await expect.poll(async () => creates(await plane.audit()).length, { timeout: 60_000, interval: 100 }).toBe(1);
    killTree(cli.pid!);
    await exited;
    expect((await senlinClusters(plane)).map((c) => c.bindings.length)).toEqual([0]);

    await t.stack.stack.cancel();
    const result = await t.stack.up();
    expect(result.outputs.status).toBe("ACTIVE");
    expect(creates(await plane.audit())).toHaveLength(1);
    const clusters = await senlinClusters(plane);
    expect(clusters.map((c) => [c.id, c.bindings.length])).toEqual([[result.outputs.id, 1]]);
  });

  it("never touches a same-named cluster that is not its own: creates its own beside it and deletes only its own", async () => {
    t = await openSenlinStack({ timeScale: 0.1 });
    const profile = await t.rest.call("GET", "/v1/profiles/web-profile");
    const foreign = await t.rest.call("POST", "/v1/clusters", { cluster: { name: "shared", profile_id: profile.body.profile.id, desired_capacity: 1 } });
    expect(await t.rest.waitAction(foreign.location)).toBe("SUCCEEDED");
    const foreignId = String(foreign.body.cluster.id);

    await t.configure({ cluster: { profile: "web-profile", name: "shared", desiredCapacity: 2 } });
    const result = await t.stack.up();
    expect(result.outputs.id).not.toBe(foreignId);
    await t.configure({ cluster: { profile: "web-profile", name: "shared", desiredCapacity: 3 } });
    await t.stack.up();
    await t.stack.destroy();

    const mutations = senlinMutations(await t.plane.audit());
    expect(mutations.filter((m) => m.endsWith(foreignId))).toEqual([]);
    const left = await senlinClusters(t.plane);
    expect(left.map((c) => [c.id, c.name, c.desired_capacity, c.status])).toEqual([[foreignId, "shared", 1, "ACTIVE"]]);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { type CmasshStack, openCmasshStack } from "../harness/cmassh-stack";
import { spawnCli } from "../harness/engine";
import type { AuditEntry } from "../harness/local-plane";
import { killTree } from "../harness/processes";

const creates = (entries: AuditEntry[]) => entries.filter((e) => e.operation === "CreateCluster" && e.code === "OK");

describe("cma-ssh under faults: state stays true, nothing orphaned, nothing duplicated", () => {
  let t: CmasshStack | undefined;

  afterEach(async () => {
    await t?.plane.stop();
    t = undefined;
  });

  it("retries transient failures: the next 3 calls answer UNAVAILABLE and up still succeeds", async () => {
    t = await openCmasshStack({ program: "cmassh-single", timeScale: 0.2 });
    await t.plane.addFault({ api: "cmassh", count: 3, action: "error", code: "UNAVAILABLE" });
    const result = await t.stack.up();
    expect(result.outputs.status).toBe("RUNNING");
    const audit = await t.plane.audit();
    expect(audit.slice(0, 3).map((e) => e.code)).toEqual(["UNAVAILABLE", "UNAVAILABLE", "UNAVAILABLE"]);
    expect(creates(audit)).toHaveLength(1);
    expect(await t.plane.cmasshClusters()).toHaveLength(1);
  });

  it("fails within clusterform:unreachableTimeout against an endpoint nothing listens on, naming the address", async () => {
    t = await openCmasshStack({ program: "cmassh-single", config: { "clusterform:unreachableTimeout": "3s" } });
    // A privileged port nothing here listens on and no server takes (the stopped plane's own port
    // can be taken at once by a server another test file starts, which then answers instead).
    const address = "http://127.0.0.1:2"; // not 9: fetch refuses the discard port
    await t.stack.setConfig("clusterform:endpoint", address);
    await t.plane.stop();
    // The cluster's create timeout is 2 minutes: only the unreachable limit can end the run sooner.
    const started = Date.now();
    const failure = await t.stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(new RegExp(`UNREACHABLE: cannot reach ${address.replace(/\./g, "\\.")}: connect ECONNREFUSED`));
    expect(failure).toMatch(/giving up \(limit 3s, set by clusterform:unreachableTimeout\)/);
    expect(Date.now() - started).toBeLessThan(120_000);
  });

  it("reports a failed refresh once, by the engine, without the provider host's copy and stack trace", async () => {
    t = await openCmasshStack({ program: "cmassh-single", timeScale: 0.1, config: { "clusterform:unreachableTimeout": "2s" } });
    await t.stack.up();
    await t.plane.stop();
    const failure = await t.stack.refresh().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/GetCluster cluster "[^"]+": UNREACHABLE: cannot reach http:\/\/127\.0\.0\.1:\d+/);
    expect(failure).not.toMatch(/\n\s+at /);
    expect(failure).not.toContain("ClusterformError:");
    // The CLI's error text holds its output more than once; the first Diagnostics section counts.
    const diagnostics = /Diagnostics:\n([\s\S]*?)\n(?:Outputs|Resources):/.exec(failure)?.[1];
    expect(diagnostics?.split("UNREACHABLE: cannot reach").length).toBe(2);
  });

  it("records a cluster whose provisioning ends in ERROR, fails clearly, and never orphans or duplicates it", async () => {
    t = await openCmasshStack({ program: "cmassh-single", timeScale: 0.2 });
    await t.plane.addFault({ api: "cmassh", operation: "CreateCluster", action: "fail-operation", message: "no capacity for gpu machines" });

    await expect(t.stack.up()).rejects.toThrow(/is in ERROR: no capacity for gpu machines/);
    const state = await t.stack.exportState();
    const cluster = (state.deployment.resources ?? []).find((r: { type: string }) => r.type.endsWith("cmassh:Cluster"));
    expect(cluster?.outputs?.status).toBe("ERROR");
    expect(String(cluster?.outputs?.__provider)).toContain("clusterform/provider");
    expect(cluster?.initErrors?.[0]).toMatch(/no capacity for gpu machines/);

    // The next up looks again and reports the same truth; it does not create a second cluster.
    await expect(t.stack.up()).rejects.toThrow(/is in ERROR/);
    expect(creates(await t.plane.audit())).toHaveLength(1);
    expect((await t.plane.cmasshClusters()).map((c) => c.status)).toEqual(["ERROR"]);

    // Because it is recorded, destroy removes it.
    await t.stack.destroy();
    expect(await t.plane.cmasshClusters()).toEqual([]);
  });

  it("completes an up while the local control plane restarts mid-provisioning", async () => {
    t = await openCmasshStack({ program: "cmassh-single", timeScale: 1 });
    const plane = t.plane;
    const up = t.stack.up();
    await expect.poll(async () => creates(await plane.audit()).length, { timeout: 60_000, interval: 100 }).toBe(1);
    await plane.restart();
    const result = await up;
    expect(result.outputs.status).toBe("RUNNING");
    expect(creates(await plane.audit())).toHaveLength(1);
    expect((await plane.cmasshClusters()).map((c) => c.status)).toEqual(["RUNNING"]);
  });

  it("adopts what an interrupted up created: killed during provisioning, the next up converges with one CreateCluster", async () => {
    t = await openCmasshStack({ program: "cmassh-single", timeScale: 1 });
    const plane = t.plane;
    const cli = spawnCli(t.programDir, ["up", "--yes", "--skip-preview", "--stack", t.stack.stack.name]);
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    await expect.poll(async () => creates(await plane.audit()).length, { timeout: 60_000, interval: 100 }).toBe(1);
    // Kill the whole engine, CLI and providers, as a cancelled CI job would.
    killTree(cli.pid!);
    await exited;
    expect((await plane.cmasshClusters()).map((c) => c.status)).toEqual(["PROVISIONING"]);

    // The killed run left its lock: release it as Pulumi tells the user to, then run up again.
    await t.stack.stack.cancel();
    const result = await t.stack.up();
    expect(result.outputs.status).toBe("RUNNING");
    expect(creates(await plane.audit())).toHaveLength(1);
    expect((await plane.cmasshClusters()).map((c) => c.name)).toEqual([result.outputs.clusterName]);
  });
});

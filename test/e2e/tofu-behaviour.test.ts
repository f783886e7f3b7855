import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRunMarker } from "../harness/engine";
import { processesMarked } from "../harness/processes";
import { applyArgs, planArgs, type TofuDir } from "../harness/tofu";
import { SENLIN_USER } from "../harness/senlin-stack";
import { openTofuPlane, type TofuPlane } from "../harness/tofu-plane";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Provider processes this test run started (they carry the run's marker in their environment). */
function providerProcesses(): number[] {
  return processesMarked(testRunMarker())
    .filter((p) => /engines\/terraform\/(main\.js|bundle\.cjs)/.test(p.cmdline))
    .map((p) => p.pid);
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * The plane's time scale for the tests that stop tofu during a create (a create timeout of 1 s, Ctrl-C,
 * SIGKILL): a cma-ssh or Senlin cluster takes 9 s, a vcluster 6 s, long after the timeout or signal
 * lands (each is sent once the plane has accepted the create).
 */
const SLOW = 3;
/** The plane's time scale for the others, which wait for their operations to finish. */
const FAST = 0.3;

describe("terraform-provider-clusterform: what HCL users expect (cma-ssh)", () => {
  let t: TofuPlane;
  let dir: TofuDir;
  let scale = SLOW;
  /** Restarts the plane (same port, same data) at time scale `next` unless it runs at it already. */
  const atScale = async (next: number) => {
    if (scale === next) return;
    await t.plane.restart({ timeScale: next });
    scale = next;
  };
  beforeAll(async () => {
    t = await openTofuPlane({ timeScale: SLOW });
    dir = t.open("cmassh", "behaviour-cmassh");
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("refuses bad input at plan time, naming the attribute, the value and what is allowed, with no platform call but a data source's read", async () => {
    const since = await t.plane.lastSeq();
    const plan = await dir.run(planArgs({ general_nodes: -1, gpu_type: "huge" }));
    expect(plan.code).toBe(1);
    const text = plan.stderr.replace(/\s+/g, " ");
    expect(text).toMatch(/Invalid node_count.*node_count must be an integer between 0 and 1000, got -1/);
    expect(text).toMatch(/Invalid instance_type.*instance_type must be one of "standard" or "gpu", got "huge"/);
    expect(text).toContain('resource "clusterform_cmassh_node_pool" "general"');
    // tofu shows the configuration line of each attribute the diagnostic points at.
    expect(text).toMatch(/on main\.tf line \d+, in resource "clusterform_cmassh_node_pool" "general": \d+: node_count = var\.general_nodes/);
    expect(text).toMatch(/on main\.tf line \d+, in resource "clusterform_cmassh_node_pool" "gpu": \d+: instance_type = var\.gpu_type/);
    // A second platform: a vcluster's isolation mode outside its allowed values.
    const vc = t.open("vcluster", "behaviour-vcluster-bad");
    const bad = await vc.run(planArgs({ isolation_mode: "shared" }));
    expect(bad.code).toBe(1);
    expect(bad.stderr.replace(/\s+/g, " ")).toMatch(
      /Invalid isolation_mode.*on main\.tf line \d+, in resource "clusterform_vcluster_vcluster" "dev": \d+: isolation_mode = var\.isolation_mode isolation_mode must be one of "full" or "lite", got "shared"/,
    );
    // No call for the refused resources: the only one is the read of the cma-ssh configuration's data
    // source (the versions on offer), which tofu makes before it plans the resources that use it.
    expect((await t.plane.audit(since)).map((e) => `${e.api} ${e.operation}`)).toEqual(["cmassh GetUpgradeClusterInformation"]);
  });

  it("takes the endpoint and the credentials from the provider block, over wrong environment variables", async () => {
    const senlin = t.open("senlin", "behaviour-provider-block");
    const profile = (await t.plane.admin<{ profiles: { id: string; name: string }[] }>("/_local/senlin/profiles")).profiles.find((p) => p.name === "web-profile")!;
    const importArgs = ["import", "-input=false", "-no-color", "clusterform_senlin_profile.server", profile.id];
    // The environment points nowhere and carries wrong credentials.
    Object.assign(senlin.env, { CLUSTERFORM_ENDPOINT: "http://127.0.0.1:9", OS_USERNAME: "nobody", OS_PASSWORD: "wrong", OS_PROJECT_NAME: "none" });
    const refused = await senlin.run(importArgs);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("127.0.0.1:9");
    writeFileSync(
      path.join(senlin.dir, "provider_override.tf"),
      `provider "clusterform" {\n  endpoint            = "${t.plane.url}"\n  senlin_username     = "${SENLIN_USER.username}"\n  senlin_password     = "${SENLIN_USER.password}"\n  senlin_project_name = "${SENLIN_USER.project}"\n}\n`,
    );
    const since = await t.plane.lastSeq();
    await senlin.ok(importArgs);
    expect((await senlin.resources())["clusterform_senlin_profile.server"].values.id).toBe(profile.id);
    // Keystone saw the block's user; the import only read.
    const calls = await t.plane.audit(since);
    // (The environment's user would have been refused: the token was granted to the block's.)
    expect(calls.filter((e) => e.api === "keystone").map((e) => `${e.operation} ${e.code}`)).toEqual(["CreateToken OK"]);
    expect(calls.filter((e) => e.api !== "keystone" && !e.operation.startsWith("Get") && !e.operation.startsWith("List"))).toEqual([]);
  });

  it("honours the timeouts block: a create past its timeout fails naming it, and tofu keeps the object (tainted) instead of losing it", async () => {
    await atScale(SLOW);
    const since = await t.plane.lastSeq();
    const apply = await dir.run(applyArgs({ create_timeout: "1s" }));
    expect(apply.code, apply.stdout).toBe(1);
    expect(apply.stderr.replace(/\s+/g, " ")).toMatch(/\(timeout 1s\)/);
    expect((await t.mutationsSince(since)).filter((op) => op === "CreateCluster")).toEqual(["CreateCluster"]);
    const cluster = (await dir.resources())["clusterform_cmassh_cluster.analytics"];
    expect(cluster?.values.id).toBe("analytics");
    // The next apply replaces the tainted cluster: delete, then create, so there is one cluster.
    const plan = await dir.ok(planArgs());
    expect(plan.stdout).toMatch(/clusterform_cmassh_cluster\.analytics is tainted, so it must be replaced/);
  });

  it("creates the cluster and its pools, planning the platform's values as known after apply", async () => {
    // The tainted cluster's create, begun at the slow scale, still ends when it was due to.
    await atScale(FAST);
    const plan = await dir.ok(planArgs());
    // The pools are new: their id is the platform's; the replaced cluster's status is the platform's too.
    expect(plan.stdout).toMatch(/\+ id\s+= \(known after apply\)/);
    expect(plan.stdout).toMatch(/status\s+=.*\(known after apply\)/);
    await dir.ok(applyArgs());
    expect((await t.plane.cmasshClusters()).map((c) => `${c.name}:${c.status}:${c.pools.length}`)).toEqual(["analytics:RUNNING:2"]);
  });

  it("marks the kubeconfig sensitive", async () => {
    const resources = await dir.resources();
    const cluster = resources["clusterform_cmassh_cluster.analytics"];
    expect(cluster.sensitive_values.kubeconfig).toBe(true);
    const shown = await dir.ok(["show", "-no-color"]);
    expect(shown.stdout).toContain("kubeconfig");
    expect(shown.stdout).not.toContain("apiVersion");
  });

  it("shows an object deleted outside tofu as drift in plan -refresh-only, and forgets it in apply -refresh-only", async () => {
    await atScale(FAST);
    const gone = await fetch(`${t.plane.url}/api/v1/cluster?name=analytics`, { method: "DELETE" });
    expect(gone.status).toBe(200);
    await until("the deletion", async () => ((await t.plane.cmasshClusters()).length === 0 ? true : undefined));
    const plan = await dir.ok(planArgs({}, ["-refresh-only"]));
    expect(plan.stdout).toContain("clusterform_cmassh_cluster.analytics has been deleted");
    await dir.ok(["apply", "-refresh-only", "-auto-approve", "-input=false", "-no-color"]);
    expect(Object.keys(await dir.resources())).not.toContain("clusterform_cmassh_cluster.analytics");
  });

  it("ends a wait promptly on Ctrl-C (StopProvider), and the next apply converges to the one object", async () => {
    await atScale(SLOW);
    const vc = t.open("vcluster", "behaviour-vcluster-stop");
    const since = await t.plane.lastSeq();
    const child = vc.start(applyArgs());
    let output = "";
    child.stdout?.on("data", (c) => {
      output += c;
    });
    child.stderr?.on("data", (c) => {
      output += c;
    });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await until("CreateVCluster", async () => ((await t.plane.audit(since)).some((e) => e.operation === "CreateVCluster") ? true : undefined));
    const interrupted = Date.now();
    child.kill("SIGINT");
    expect(await exited).toBe(1);
    // tofu ended the wait instead of waiting it out: when it exited, the vcluster was still being created.
    const phase = (await t.plane.admin<{ vclusters: { name: string; phase: string }[] }>("/_local/vcluster/vclusters")).vclusters.find((v) => v.name === "dev")?.phase;
    expect(phase, `tofu exited ${Date.now() - interrupted} ms after SIGINT`).not.toBe("RUNNING");
    expect(output.replace(/\s+/g, " ")).toContain("clusterform: stopped (StopProvider, e.g. Ctrl-C) while waiting for the platform");
    const resumed = await t.plane.lastSeq();
    await vc.ok(applyArgs());
    expect((await t.plane.audit(resumed)).filter((e) => e.operation === "CreateVCluster")).toEqual([]);
    const listed = await t.plane.admin<{ vclusters: { name: string; namespace: string }[] }>("/_local/vcluster/vclusters");
    expect(listed.vclusters.map((v) => `${v.namespace}/${v.name}`)).toEqual(["team-dev/dev"]);
  });

  it("survives tofu killed with SIGKILL during the slowest create (a Senlin cluster waiting for its CLUSTER_CREATE action): the provider exits by itself, no lock is left, the next apply adopts the one cluster", async () => {
    await atScale(SLOW);
    const senlin = t.open("senlin", "behaviour-senlin-kill");
    const since = await t.plane.lastSeq();
    const child = senlin.start(applyArgs());
    await until("CreateCluster", async () => ((await t.plane.audit(since)).some((e) => e.operation === "CreateCluster") ? true : undefined));
    const providers = providerProcesses();
    expect(providers.length).toBeGreaterThan(0);
    child.kill("SIGKILL");
    // The provider notices that its parent is gone and exits.
    await until("the provider to exit", () => (providerProcesses().some((pid) => providers.includes(pid)) ? undefined : true), 10_000);
    // The local backend writes the state when the apply ends: the killed apply recorded nothing,
    // not even the profile and policy it had finished.
    expect(await senlin.resources()).toEqual({});
    // The local backend locks the state with a file lock, which the system releases with the killed
    // process: the next apply needs no -lock=false and no force-unlock (docs/opentofu.md).
    const resumed = await t.plane.lastSeq();
    await senlin.ok(applyArgs());
    // The profile, the policy and the cluster the killed apply made are adopted (their marker,
    // their values), the profile although the cluster already uses it (tofu had recorded neither).
    expect((await t.plane.audit(resumed)).filter((e) => /^Create(Cluster|Policy|Profile)$/.test(e.operation))).toEqual([]);
    const clusters = (await t.plane.admin<{ clusters: { id: string; name: string; status: string }[] }>("/_local/senlin/clusters")).clusters.filter((c) => c.name === "web");
    expect(clusters.map((c) => `${c.name}:${c.status}`)).toEqual(["web:ACTIVE"]);
    const state = await senlin.resources();
    expect(Object.keys(state).sort()).toEqual(["clusterform_senlin_cluster.web", "clusterform_senlin_policy.deletion", "clusterform_senlin_profile.server"]);
    expect(state["clusterform_senlin_cluster.web"].values.id).toBe(clusters[0].id);
    // Exactly one of each on Senlin: nothing duplicated, nothing left over.
    const profiles = (await t.plane.admin<{ profiles: { id: string; name: string }[] }>("/_local/senlin/profiles")).profiles.filter((p) => p.name === "web-server");
    expect(profiles.map((p) => p.id)).toEqual([state["clusterform_senlin_profile.server"].values.id]);
    const policies = (await t.plane.admin<{ policies: { id: string; name: string }[] }>("/_local/senlin/policies")).policies.filter((p) => p.name === "web-deletion");
    expect(policies.map((p) => p.id)).toEqual([state["clusterform_senlin_policy.deletion"].values.id]);
  });
});

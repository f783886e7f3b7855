import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalControlPlane, startLocalControlPlane } from "../server";
import { makeDataDir, removeDataDirs } from "../testing";

/**
 * The unmodified OpenStack clients of the distribution (`openstack` with python-senlinclient, and
 * openstacksdk) against the local Keystone and Senlin, given only the OS_* variables. The
 * distribution's Python runs them (scripts/setup/openstack-clients.sh installs them); the plane
 * runs at time scale 0, so every action has ended by the next call.
 */
const PYTHON = "/usr/bin/python3";
const HERE = path.join(__dirname, "real-clients");

interface CliResult {
  rc: number;
  stdout: string;
  stderr: string;
}

function osEnv(plane: LocalControlPlane): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OS_")));
  return {
    ...inherited,
    OS_AUTH_URL: `${plane.url}/v3`,
    OS_USERNAME: "admin",
    OS_PASSWORD: "admin",
    OS_PROJECT_NAME: "admin",
    OS_USER_DOMAIN_NAME: "Default",
    OS_PROJECT_DOMAIN_NAME: "Default",
    OS_IDENTITY_API_VERSION: "3",
  };
}

/** Runs a Python script asynchronously (the plane answers from this same process meanwhile). */
function python(script: string, env: NodeJS.ProcessEnv, stdin = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(PYTHON, [path.join(HERE, script)], { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${script} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
    child.stdin?.end(stdin);
  });
}

/** The commands, each as `openstack` takes them, run in order in one Python process. */
async function openstack(plane: LocalControlPlane, commands: { argv: string[]; env?: Record<string, string> }[]): Promise<CliResult[]> {
  return JSON.parse(await python("cli-driver.py", osEnv(plane), JSON.stringify(commands)));
}

const json = (r: CliResult): Record<string, unknown> => {
  if (r.rc !== 0) throw new Error(`command failed (${r.rc}): ${r.stderr}`);
  return JSON.parse(r.stdout);
};

describe("the unmodified OpenStack clients against the local Keystone and Senlin", () => {
  let plane: LocalControlPlane;
  let specs: string;

  beforeAll(async () => {
    plane = await startLocalControlPlane({ port: 0, dataDir: makeDataDir(), timeScale: 0 });
    specs = makeDataDir();
    fs.writeFileSync(path.join(specs, "profile.yaml"), "type: os.nova.server\nversion: 1.0\nproperties:\n  flavor: m1.small\n  image: cirros\n");
    fs.writeFileSync(path.join(specs, "policy.yaml"), "type: senlin.policy.deletion\nversion: 1.0\nproperties:\n  criteria: OLDEST_FIRST\n");
  });

  afterAll(async () => {
    await plane?.close();
    removeDataDirs();
  });

  it("runs an operator's everyday `openstack cluster` commands, with real Senlin's answers and error paths", async () => {
    const f = ["-f", "json"];
    const profile = path.join(specs, "profile.yaml");
    const policy = path.join(specs, "policy.yaml");
    const steps: Record<string, string[]> = {
      token: ["token", "issue", ...f],
      catalog: ["catalog", "list", ...f],
      versions: ["versions", "show", "--service", "clustering", ...f],
      build: ["cluster", "build", "info", ...f],
      profileTypes: ["cluster", "profile", "type", "list", ...f],
      policyTypes: ["cluster", "policy", "type", "list", ...f],
      profile: ["cluster", "profile", "create", "--spec-file", profile, "p1", ...f],
      policy: ["cluster", "policy", "create", "--spec-file", policy, "pol1", ...f],
      create: ["cluster", "create", "--profile", "p1", "--min-size", "1", "--max-size", "4", "--desired-capacity", "2", "c1", ...f],
      show: ["cluster", "show", "c1", ...f],
      list: ["cluster", "list", ...f],
      update: ["cluster", "update", "--name", "c2", "--metadata", "tier=web", "c1", ...f],
      updated: ["cluster", "show", "c2", ...f],
      resize: ["cluster", "resize", "--capacity", "3", "c2"],
      expand: ["cluster", "expand", "c2"],
      shrink: ["cluster", "shrink", "c2"],
      resized: ["cluster", "show", "c2", ...f],
      tooBig: ["cluster", "resize", "--capacity", "9", "--strict", "c2"],
      check: ["cluster", "check", "c2"],
      recover: ["cluster", "recover", "c2"],
      nodeCreate: ["cluster", "node", "create", "--profile", "p1", "--cluster", "c2", "n1", ...f],
      members: ["cluster", "members", "list", "c2", ...f],
      nodeUpdate: ["cluster", "node", "update", "--name", "n2", "n1", ...f],
      nodeShow: ["cluster", "node", "show", "n2", ...f],
      nodeCheck: ["cluster", "node", "check", "n2"],
      nodeRecover: ["cluster", "node", "recover", "n2"],
      attach: ["cluster", "policy", "attach", "--policy", "pol1", "c2"],
      bindings: ["cluster", "policy", "binding", "list", "c2", ...f],
      bindingUpdate: ["cluster", "policy", "binding", "update", "--policy", "pol1", "--enabled", "false", "c2"],
      binding: ["cluster", "policy", "binding", "show", "--policy", "pol1", "c2", ...f],
      detach: ["cluster", "policy", "detach", "--policy", "pol1", "c2"],
      receiverCreate: ["cluster", "receiver", "create", "--type", "webhook", "--cluster", "c2", "--action", "CLUSTER_SCALE_IN", "r1", ...f],
      receiverList: ["cluster", "receiver", "list", ...f],
      receiverDelete: ["cluster", "receiver", "delete", "--force", "r1"],
      actions: ["cluster", "action", "list", ...f],
      events: ["cluster", "event", "list", ...f],
      services: ["cluster", "service", "list", ...f],
      unknown: ["cluster", "show", "no-such-cluster", ...f],
      badPassword: ["cluster", "list", ...f],
      delete: ["cluster", "delete", "--force", "c2"],
      gone: ["cluster", "list", ...f],
    };
    const names = Object.keys(steps);
    const results = await openstack(
      plane,
      names.map((name) => ({ argv: steps[name], ...(name === "badPassword" ? { env: { OS_PASSWORD: "wrong" } } : {}) })),
    );
    const r = Object.fromEntries(names.map((name, i) => [name, results[i]]));

    expect(json(r.token)).toMatchObject({ id: expect.any(String), project_id: expect.any(String), user_id: expect.any(String) });
    const catalog = json(r.catalog) as unknown as { Type: string; Endpoints: { interface: string; url: string }[] }[];
    // Senlin is listed at the root, without /v1, as devstack registers it: the clients discover v1.
    expect(catalog.find((s) => s.Type === "clustering")?.Endpoints.find((e) => e.interface === "public")?.url).toBe(plane.url);
    expect(json(r.versions)).toEqual([
      {
        "Region Name": "RegionOne",
        "Service Type": "clustering",
        Version: "1.0",
        Status: "CURRENT",
        Endpoint: `${plane.url}/v1`,
        "Min Microversion": "1.0",
        "Max Microversion": "1.14",
      },
    ]);
    expect(json(r.build)).toMatchObject({ api: expect.stringContaining("revision"), engine: expect.stringContaining("revision") });
    expect((json(r.profileTypes) as unknown as { name: string }[]).map((t) => t.name)).toContain("os.nova.server");
    expect((json(r.policyTypes) as unknown as { name: string }[]).map((t) => t.name)).toContain("senlin.policy.deletion");
    expect(json(r.profile)).toMatchObject({ name: "p1", type: "os.nova.server-1.0" });
    expect(json(r.policy)).toMatchObject({ name: "pol1", type: "senlin.policy.deletion-1.0" });
    expect(json(r.create)).toMatchObject({ name: "c1", min_size: 1, max_size: 4, desired_capacity: 2 });
    expect(json(r.show)).toMatchObject({ name: "c1", status: "ACTIVE", desired_capacity: 2 });
    expect((json(r.list) as unknown as { name: string }[]).map((c) => c.name)).toEqual(["c1"]);
    expect(r.update.rc).toBe(0);
    const updated = json(r.updated);
    expect(updated).toMatchObject({ name: "c2", status: "ACTIVE" });
    // The CLI prints dict fields as JSON text.
    expect(JSON.parse(String(updated.metadata))).toEqual({ tier: "web" });
    for (const name of ["resize", "expand", "shrink", "check", "recover", "nodeCheck", "nodeRecover", "attach", "bindingUpdate", "detach", "delete"]) {
      expect(r[name].rc, `${name}: ${r[name].stderr}`).toBe(0);
    }
    // resize to 3, expand to 4, shrink back to 3.
    expect(json(r.resized)).toMatchObject({ desired_capacity: 3 });
    // senlinclient prints the 400's message (its cluster actions do not raise on an error body).
    expect(r.tooBig.stdout).toContain("Request error:");
    expect(r.tooBig.stdout).toContain("The target capacity (9) is greater than the cluster's max_size (4).");
    expect(json(r.nodeCreate)).toMatchObject({ name: "n1" });
    expect((json(r.members) as unknown as { name: string }[]).map((n) => n.name)).toContain("n1");
    expect(json(r.nodeShow)).toMatchObject({ name: "n2", status: "ACTIVE" });
    expect((json(r.bindings) as unknown as { policy_name: string }[]).map((b) => b.policy_name)).toEqual(["pol1"]);
    expect(json(r.binding)).toMatchObject({ policy_name: "pol1", is_enabled: false });
    expect(json(r.receiverCreate)).toMatchObject({ name: "r1", type: "webhook", action: "CLUSTER_SCALE_IN" });
    expect((json(r.receiverList) as unknown as { name: string }[]).map((x) => x.name)).toEqual(["r1"]);
    expect(r.receiverDelete.rc, r.receiverDelete.stderr).toBe(0);
    const actions = (json(r.actions) as unknown as { action: string; status: string }[]).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["CLUSTER_CREATE", "CLUSTER_UPDATE", "CLUSTER_RESIZE", "NODE_UPDATE", "NODE_RECOVER", "CLUSTER_DETACH_POLICY"]));
    expect((json(r.events) as unknown as { action: string }[]).map((e) => e.action)).toContain("CLUSTER_CREATE");
    expect((json(r.services) as unknown as { binary: string; state: string }[]).map((x) => `${x.binary} ${x.state}`)).toEqual([
      "senlin-conductor up",
      "senlin-engine up",
      "senlin-health-manager up",
    ]);
    expect(r.unknown.rc).not.toBe(0);
    expect(r.unknown.stderr).toContain("no-such-cluster");
    expect(r.badPassword.rc).not.toBe(0);
    expect(r.badPassword.stderr).toContain("HTTP 401");
    expect(json(r.gone)).toEqual([]);
  });

  it("serves openstacksdk: discovery through the catalog's unversioned URL, microversion range, create status, errors", async () => {
    const out = JSON.parse(await python("sdk-driver.py", osEnv(plane)));
    expect(out.discovery).toEqual({ url: `${plane.url}/v1`, min: "1.0", max: "1.14" });
    expect(out.profile).toEqual({ ok: "sdk-prof" });
    // Real Senlin answers a create with the cluster as it was accepted: INIT.
    expect(out.create).toEqual({ ok: "INIT" });
    expect(out.active).toEqual({ ok: "ACTIVE" });
    expect(out.scale_out).toEqual({ ok: true });
    expect(out.size_after_scale_out).toEqual({ ok: 2 });
    expect(out.resize_too_big.ok).toMatchObject({ code: 400, error: { type: "BadRequest", message: "The target capacity (9) is greater than the cluster's max_size (3)." } });
    // The update answers the cluster as it was when accepted; the rename shows once the action ended.
    expect(out.update).toEqual({ ok: "sdk-c" });
    expect(out.renamed).toEqual({ ok: "sdk-c2" });
    expect(out.receiver).toEqual({ ok: { type: "webhook", action: "CLUSTER_SCALE_OUT", has_url: true } });
    expect(out.trigger).toEqual({ ok: 202 });
    expect(out.size_after_trigger).toEqual({ ok: 3 });
    expect(out.receivers_left).toEqual({ ok: [] });
    expect(out.missing).toEqual({ status: 404, message: "The cluster 'no-such-cluster' could not be found." });
    expect(out.actions.ok).toEqual(expect.arrayContaining(["CLUSTER_CREATE", "CLUSTER_SCALE_OUT", "CLUSTER_UPDATE"]));
    expect(out.events).toEqual({ ok: true });
    expect(out.profile_types.ok).toContain("os.nova.server-1.0");
    // The rolling update as openstacksdk sees it: three batches of one, each node updated by a
    // derived action waiting on the cluster update, every node and the cluster on the new profile.
    expect(out.batch_policy).toEqual({ ok: "senlin.policy.batch-1.0" });
    expect(out.roll).toEqual({ ok: { batches: [1, 1, 1], derived: true, profiles: ["sdk-prof2"], cluster_profile: "sdk-prof2" } });
    expect(out.batch_detach).toEqual({ ok: true });
    // (openstacksdk does not raise on it: adopt_node returns the error body as its answer.)
    expect(JSON.stringify(out.adopt_unversioned)).toContain("API version '1.0' is not supported on this method: node adopt-preview needs 1.7 or later.");
    expect(out.adopt).toEqual({ ok: { preview: { flavor: "m1.small", image: "debian-12" }, adopted: ["sdk-adopted", "ACTIVE"] } });
    expect(out.services).toEqual({ ok: ["senlin-conductor", "senlin-engine", "senlin-health-manager"] });
    expect(out.delete).toEqual({ ok: true });
    expect(out.deleted).toEqual({ ok: true });
  });
});

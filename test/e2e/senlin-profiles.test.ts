import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, destroyLeftovers, type RunResult, resourceSteps, spawnCli } from "../harness/engine";
import type { AuditEntry } from "../harness/local-plane";
import { expectPlannedAsAudited, previewStep } from "../harness/planned";
import { killTree } from "../harness/processes";
import { openSenlinStack, type SenlinStack, senlinClusters, senlinMutations } from "../harness/senlin-stack";

// senlin.Profile and senlin.Policy through the real engine, on one stack (program `senlin-profiles`:
// a profile, a policy, and a cluster that refers to both by id): the field table, lifecycle,
// replacement, an interrupted run, destroy. Their bad inputs are rows of the in-process table
// (provider/engines/checks/bad-inputs.test.ts), through the three engines' check surfaces.

type Spec = Record<string, unknown>;

const SERVER = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } };
const DELETION = { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } };
/** One node at a time, one always in service, 10 s (1 s at the stack's time scale) between batches. */
const BATCH = { type: "senlin.policy.batch", version: "1.0", properties: { min_in_service: 1, max_batch_size: 1, pause_time: 10 } };
/** The deletion policy's spec from the field table's spec row on. */
const YOUNGEST = { ...DELETION, properties: { criteria: "YOUNGEST_FIRST" } };
/** The policy's config from the field table's spec row on. */
const KEPT_POLICY = { spec: YOUNGEST, name: "del-chosen" };
/** The profile spec the rolling-update test moves to, and the later tests keep. */
const ROLLED = { profile: { spec: { ...SERVER, properties: { ...SERVER.properties, image: "debian-12.8" } }, name: "web-chosen", metadata: { team: "web" } } };

interface View {
  id: string;
  name: string;
  spec: Spec;
  metadata?: Record<string, unknown>;
}
interface NodeView {
  id: string;
  cluster_id: string;
  profile_id: string;
  status: string;
}
interface ActionView {
  id: string;
  target: string;
  cause: string;
  start_time: number;
  end_time: number;
  inputs: Record<string, unknown>;
  data: { update?: { pause_time: number; plan: string[][] } };
}

const stepsOf = (result: RunResult) => changingSteps(result).map((s) => `${s.op} ${s.name}`).sort();

describe("senlin: profiles and policies as resources", () => {
  let t: SenlinStack;
  let outputs: Record<string, unknown>;
  const profiles = async () => (await t.plane.admin<{ profiles: View[] }>("/_local/senlin/profiles")).profiles;
  const policies = async () => (await t.plane.admin<{ policies: View[] }>("/_local/senlin/policies")).policies;
  const nodes = async () => (await t.plane.admin<{ nodes: NodeView[] }>("/_local/senlin/nodes")).nodes;
  /** Profiles and policies the stack made (the harness seeds others by hand). */
  const ours = async () => ({
    profiles: (await profiles()).filter((p) => p.name.startsWith("web-") && p.name !== "web-profile" && p.name !== "web-profile-2").map((p) => p.id),
    policies: (await policies()).filter((p) => p.name.startsWith("del-")).map((p) => p.id),
  });

  /** One `up` after a config change: its preview (steps and result), its mutating calls and audit, then an empty preview. */
  async function change(
    values: Record<string, unknown>,
  ): Promise<{ preview: string[]; planned: RunResult; calls: string[]; audit: AuditEntry[]; before: Record<string, unknown> }> {
    const before = outputs;
    await t.configure(values);
    const planned = await t.stack.preview();
    const preview = stepsOf(planned);
    const since = await t.plane.lastSeq();
    outputs = (await t.stack.up()).outputs;
    const audit = await t.plane.audit(since);
    const calls = senlinMutations(audit);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
    return { preview, planned, calls, audit, before };
  }

  /**
   * The operations each changed resource's preview planned are what the up sent (issue 18): the
   * profile's and the policy's own calls (a create is audited under its name, so they are told
   * apart by operation), and the cluster's by its id.
   */
  function expectPlannedAsAuditedFor(run: { planned: RunResult; audit: AuditEntry[] }, names: ("web" | "del" | "main")[]): void {
    const own: Record<string, (e: AuditEntry) => boolean> = {
      web: (e) => /^(Create|Update|Delete)Profile$/.test(e.operation),
      del: (e) => /^(Create|Update|Delete)Policy$/.test(e.operation),
      main: (e) => e.target === outputs.clusterId,
    };
    for (const name of names) {
      const step = previewStep(run.planned.steps, name);
      expect(step, `the preview has a step for ${name}`).toBeDefined();
      expectPlannedAsAudited(step, run.audit.filter((e) => e.api === "senlin" && own[name](e)));
    }
  }

  beforeAll(async () => {
    t = await openSenlinStack({ program: "senlin-profiles", timeScale: 0.1 });
  });
  afterAll(async () => {
    await destroyLeftovers(t?.stack);
    await t?.plane.stop();
  });

  it("creates the profile and the policy first, then the cluster built from them by id", async () => {
    const since = await t.plane.lastSeq();
    outputs = (await t.stack.up()).outputs;
    const calls = senlinMutations(await t.plane.audit(since)).map((c) => c.split(" ")[0]);
    expect(calls.slice(0, 2).sort()).toEqual(["CreatePolicy", "CreateProfile"]);
    expect(calls.slice(2)).toEqual(["CreateCluster", "AttachClusterPolicy"]);
    const [cluster] = await senlinClusters(t.plane);
    expect(cluster.id).toBe(outputs.clusterId);
    expect(cluster.bindings.map((b) => b.policy_id)).toEqual([outputs.policyId]);
    expect((await nodes()).map((n) => n.profile_id)).toEqual([outputs.profileId, outputs.profileId]);
    expect(outputs.profileName).toMatch(/^web-[0-9a-f]{7}$/);
  });

  it("lifecycle: a no-op preview and up make no Senlin call, and refresh changes nothing", async () => {
    const since = await t.plane.lastSeq();
    expect(changingSteps(await t.stack.preview())).toEqual([]);
    expect(changingSteps(await t.stack.up())).toEqual([]);
    // No call at all: neither Senlin nor Keystone (a no-op does not even authenticate).
    expect(await t.plane.audit(since)).toEqual([]);
    expect(resourceSteps(await t.stack.refresh()).filter((s) => s.diffs.length > 0)).toEqual([]);
  });

  // Rows of different resources share an up (their calls are told apart by target), as the cluster
  // field table's lanes do: each round is one preview, one up and one preview after.
  it("field table: the profile's name is one UpdateProfile; the policy's name, in the same up, one UpdatePolicy", async () => {
    const run = await change({ profile: { spec: SERVER, name: "web-chosen" }, policy: { spec: DELETION, name: "del-chosen" } });
    const { preview, calls } = run;
    expect(preview).toEqual(["update del", "update web"]);
    expect(calls.sort()).toEqual([`UpdatePolicy ${outputs.policyId}`, `UpdateProfile ${outputs.profileId}`]);
    expectPlannedAsAuditedFor(run, ["web", "del"]);
    expect((await profiles()).find((p) => p.id === outputs.profileId)?.name).toBe("web-chosen");
    expect((await policies()).find((p) => p.id === outputs.policyId)?.name).toBe("del-chosen");
  });

  it("field table: the profile's metadata is one UpdateProfile that keeps the owner marker", async () => {
    const run = await change({ profile: { spec: SERVER, name: "web-chosen", metadata: { team: "web" } } });
    const { preview, calls } = run;
    expect(preview).toEqual(["update web"]);
    expect(calls).toEqual([`UpdateProfile ${outputs.profileId}`]);
    expectPlannedAsAuditedFor(run, ["web"]);
    expect((await profiles()).find((p) => p.id === outputs.profileId)?.metadata).toEqual({ team: "web", "clusterform.dev/owner": expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it("field table: a new spec of each is a new object, created first; the cluster switches with Senlin's update (profile) and a detach and attach (policy); then the old ones go", async () => {
    const image = { ...SERVER, properties: { ...SERVER.properties, image: "debian-12" } };
    const run = await change({ profile: { spec: image, name: "web-chosen", metadata: { team: "web" } }, policy: KEPT_POLICY });
    const { preview, calls, before } = run;
    expect(preview).toEqual([
      "create-replacement del",
      "create-replacement web",
      "delete-replaced del",
      "delete-replaced web",
      "replace del",
      "replace web",
      "update main",
    ]);
    expect(outputs.profileId).not.toBe(before.profileId);
    expect(outputs.policyId).not.toBe(before.policyId);
    const ops = calls.map((c) => c.split(" ")[0]);
    expect(ops.slice(0, 2).sort()).toEqual(["CreatePolicy", "CreateProfile"]);
    expect(calls.slice(2, 5)).toEqual([`UpdateCluster ${outputs.clusterId}`, `DetachClusterPolicy ${outputs.clusterId}`, `AttachClusterPolicy ${outputs.clusterId}`]);
    expect(calls.slice(5).sort()).toEqual([`DeletePolicy ${before.policyId}`, `DeleteProfile ${before.profileId}`]);
    // Planned as done: the profile's and the policy's create-first replacements (create, then the
    // old one's delete), and the cluster's switch to them.
    expectPlannedAsAuditedFor(run, ["web", "del", "main"]);
    expect(outputs.nodeIds).toEqual(before.nodeIds);
    expect((await nodes()).map((n) => n.profile_id)).toEqual([outputs.profileId, outputs.profileId]);
    const [cluster] = await senlinClusters(t.plane);
    expect(cluster.bindings.map((b) => b.policy_id)).toEqual([outputs.policyId]);
    expect(await ours()).toEqual({ profiles: [outputs.profileId], policies: [outputs.policyId] });
  });

  it("rolling update: with a batch policy attached, a new profile spec rolls the nodes one batch at a time, never below min_in_service", async () => {
    const attach = await change({ batch: { spec: BATCH } });
    expect(attach.preview).toEqual(["create batch", "update main"]);
    expect(attach.calls.map((c) => c.split(" ")[0])).toEqual(["CreatePolicy", "AttachClusterPolicy"]);
    await t.configure(ROLLED);
    const before = outputs;
    const since = await t.plane.lastSeq();
    // Sample the cluster's nodes while the up runs: how many are in service, how many updating.
    let done = false;
    const samples: { active: number; updating: number }[] = [];
    const up = t.stack.up().finally(() => {
      done = true;
    });
    while (!done) {
      const mine = (await nodes()).filter((n) => n.cluster_id === before.clusterId);
      samples.push({ active: mine.filter((n) => n.status === "ACTIVE").length, updating: mine.filter((n) => n.status === "UPDATING").length });
      await new Promise((r) => setTimeout(r, 50));
    }
    outputs = (await up).outputs;
    const calls = senlinMutations(await t.plane.audit(since));
    // (A create is audited under the name it asks for.)
    expect(calls).toEqual(["CreateProfile web-chosen", `UpdateCluster ${outputs.clusterId}`, `DeleteProfile ${before.profileId}`]);
    expect(Math.min(...samples.map((x) => x.active))).toBeGreaterThanOrEqual(1);
    expect(Math.max(...samples.map((x) => x.updating))).toBeLessThanOrEqual(1);
    // Senlin's own record of the roll: the batch plan on the cluster action, one derived node update per batch, in order.
    const list = async (action: string) => ((await t.rest.call("GET", `/v1/actions?action=${action}`)).body as { actions: ActionView[] }).actions;
    const update = (await list("CLUSTER_UPDATE")).filter((a) => a.target === outputs.clusterId).pop();
    expect(update?.data.update).toEqual({ pause_time: 10, plan: [[expect.any(String)], [expect.any(String)]] });
    const rolled = (await list("NODE_UPDATE")).filter((a) => a.cause === "Derived Action" && a.inputs.new_profile_id === outputs.profileId);
    rolled.sort((a, b) => a.start_time - b.start_time);
    expect(rolled.map((a) => a.target)).toEqual(update?.data.update?.plan.flat());
    expect(rolled[1].start_time - rolled[0].end_time).toBeCloseTo(1, 3);
    expect((await nodes()).map((n) => n.profile_id)).toEqual([outputs.profileId, outputs.profileId]);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("disappears: a profile and a policy an operator deleted out of band are dropped on refresh and made again on up, the cluster moved back to them", async () => {
    const before = outputs;
    const cluster = String(before.clusterId);
    // Senlin refuses to delete what a cluster uses: the operator detaches the policy and moves the cluster to a seeded profile first.
    const detach = await t.rest.call("POST", `/v1/clusters/${cluster}/actions`, { policy_detach: { policy_id: before.policyId } });
    expect(await t.rest.waitAction(detach.location)).toBe("SUCCEEDED");
    expect((await t.rest.call("DELETE", `/v1/policies/${before.policyId}`)).status).toBe(204);
    const moved = await t.rest.call("PATCH", `/v1/clusters/${cluster}`, { cluster: { profile_id: "web-profile" } });
    expect(await t.rest.waitAction(moved.location)).toBe("SUCCEEDED");
    expect((await t.rest.call("DELETE", `/v1/profiles/${before.profileId}`)).status).toBe(204);
    expect(await ours()).toEqual({ profiles: [], policies: [] });

    await t.stack.refresh();
    const names = ((await t.stack.exportState()).deployment.resources ?? []).map((r: { urn: string }) => r.urn.split("::").pop());
    expect(names.filter((n: string) => ["web", "del", "batch", "main"].includes(n)).sort()).toEqual(["batch", "main"]);
    expect(stepsOf(await t.stack.preview())).toEqual(["create del", "create web", "update main"]);

    const since = await t.plane.lastSeq();
    outputs = (await t.stack.up()).outputs;
    const ops = senlinMutations(await t.plane.audit(since)).map((c) => c.split(" ")[0]);
    expect(ops.slice(0, 2).sort()).toEqual(["CreatePolicy", "CreateProfile"]);
    expect(ops.slice(2)).toEqual(["UpdateCluster", "AttachClusterPolicy"]);
    expect(await ours()).toEqual({ profiles: [outputs.profileId], policies: [outputs.policyId] });
    expect((await nodes()).map((n) => n.profile_id)).toEqual([outputs.profileId, outputs.profileId]);
    const [view] = await senlinClusters(t.plane);
    // The policy made again and the batch policy, which stayed attached.
    expect(view.bindings).toHaveLength(2);
    expect(view.bindings.map((b) => b.policy_id)).toContain(outputs.policyId);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("replacement: `up --replace` of the profile and of the policy ends with new objects the state names and the cluster moved to them", async () => {
    await t.configure({ ...ROLLED, policy: KEPT_POLICY });
    const before = outputs;
    const since = await t.plane.lastSeq();
    const result = await t.stack.up({ replace: [await t.stack.urnOf("web"), await t.stack.urnOf("del")] });
    outputs = result.outputs;
    expect(outputs.profileId).not.toBe(before.profileId);
    expect(outputs.policyId).not.toBe(before.policyId);
    const calls = senlinMutations(await t.plane.audit(since));
    expect(calls).toContain(`DeleteProfile ${before.profileId}`);
    expect(calls).toContain(`DeletePolicy ${before.policyId}`);
    expect(await ours()).toEqual({ profiles: [outputs.profileId], policies: [outputs.policyId] });
    const [cluster] = await senlinClusters(t.plane);
    // The new deletion policy and the batch policy the rolling-update test attached.
    expect(cluster.bindings).toHaveLength(2);
    expect(cluster.bindings.map((b) => b.policy_id)).toContain(outputs.policyId);
    expect((await nodes()).map((n) => n.profile_id)).toEqual([outputs.profileId, outputs.profileId]);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("interrupted: killed while a new profile's and a new policy's creates are in flight, the next up adopts both (one of each) and converges", async () => {
    const image = { ...SERVER, properties: { ...SERVER.properties, image: "debian-13" } };
    const random = { ...DELETION, properties: { criteria: "RANDOM" } };
    // Derived names for both from here on (the replacement test after this one needs them).
    await t.configure({ profile: { spec: image, metadata: { team: "web" } }, policy: { spec: random } });
    // The plane holds both creates 3 s before making the objects: the CLI is killed meanwhile, so
    // they exist and no state names them.
    for (const operation of ["CreateProfile", "CreatePolicy"]) await t.plane.addFault({ api: "senlin", operation, action: "delay", delayMs: 3000 } as never);
    const since = await t.plane.lastSeq();
    const cli = spawnCli(t.programDir, ["up", "--yes", "--skip-preview", "--stack", t.stack.stack.name]);
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    const seen = async (op: string) => (await t.plane.audit(since)).some((e) => e.operation === op);
    await expect.poll(async () => (await seen("ListProfiles")) && (await seen("ListPolicies")), { timeout: 60_000, interval: 100 }).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    killTree(cli.pid!);
    await exited;
    await expect.poll(async () => { const o = await ours(); return [o.profiles.length, o.policies.length]; }, { timeout: 10_000, interval: 200 }).toEqual([2, 2]);
    await t.stack.stack.cancel().catch(() => undefined);
    outputs = (await t.stack.up()).outputs;
    const creates = senlinMutations(await t.plane.audit(since)).filter((c) => /^Create(Profile|Policy) /.test(c)).map((c) => c.split(" ")[0]);
    expect(creates.sort()).toEqual(["CreatePolicy", "CreateProfile"]);
    expect(await ours()).toEqual({ profiles: [outputs.profileId], policies: [outputs.policyId] });
    expect((await nodes()).map((n) => n.profile_id)).toEqual([outputs.profileId, outputs.profileId]);
    const [cluster] = await senlinClusters(t.plane);
    expect(cluster.bindings.map((b) => b.policy_id)).toContain(outputs.policyId);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("replacement with derived names: `up --replace` of each makes a new object under the same derived name, moves the cluster to it, then deletes the old one", async () => {
    const before = outputs;
    expect([before.profileName, before.policyName]).toEqual([expect.stringMatching(/^web-[0-9a-f]{7}$/), expect.stringMatching(/^del-[0-9a-f]{7}$/)]);
    const since = await t.plane.lastSeq();
    outputs = (await t.stack.up({ replace: [await t.stack.urnOf("web"), await t.stack.urnOf("del")] })).outputs;
    // The name is derived from the owner and the spec, neither of which changed: the new objects
    // carry it too, and the old ones (in use by the cluster) were not taken for leftovers to adopt.
    expect([outputs.profileName, outputs.policyName]).toEqual([before.profileName, before.policyName]);
    expect(outputs.profileId).not.toBe(before.profileId);
    expect(outputs.policyId).not.toBe(before.policyId);
    const calls = senlinMutations(await t.plane.audit(since));
    expect(calls.filter((c) => /^(Create|Delete)(Profile|Policy) /.test(c)).sort()).toEqual(
      [`CreatePolicy ${before.policyName}`, `CreateProfile ${before.profileName}`, `DeletePolicy ${before.policyId}`, `DeleteProfile ${before.profileId}`].sort(),
    );
    expect(await ours()).toEqual({ profiles: [outputs.profileId], policies: [outputs.policyId] });
    expect((await nodes()).map((n) => n.profile_id)).toEqual([outputs.profileId, outputs.profileId]);
    const [cluster] = await senlinClusters(t.plane);
    expect(cluster.bindings.map((b) => b.policy_id)).toContain(outputs.policyId);
    expect(cluster.bindings.map((b) => b.policy_id)).not.toContain(before.policyId);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("replacement of a profile nothing uses: `up --replace` finds it under its derived name and keeps it, rather than deleting what the state names", async () => {
    await t.configure({ spare: true });
    const spareId = (await t.stack.up()).outputs.spareId;
    expect(await profiles()).toContainEqual(expect.objectContaining({ id: spareId }));
    const since = await t.plane.lastSeq();
    // Create-first (this kind's default): create finds the unused profile of this resource and spec
    // (it cannot tell it from an interrupted create's leftover) and adopts it; the engine's delete
    // of the old state's id, that same profile, must then not run.
    const result = await t.stack.up({ replace: [await t.stack.urnOf("spare")] });
    expect(result.outputs.spareId).toBe(spareId);
    expect(result.stdout).toContain(`kept ${JSON.stringify(spareId)}`);
    expect(senlinMutations(await t.plane.audit(since)).filter((c) => /Profile /.test(c))).toEqual([]);
    expect(await profiles()).toContainEqual(expect.objectContaining({ id: spareId }));
    expect(changingSteps(await t.stack.preview())).toEqual([]);
    await t.configure({ spare: undefined });
    await t.stack.up();
    expect((await profiles()).map((p) => p.id)).not.toContain(spareId);
  });

  it("destroy leaves no profile, policy or cluster of the stack", async () => {
    await t.stack.destroy();
    expect(await ours()).toEqual({ profiles: [], policies: [] });
    expect(await senlinClusters(t.plane)).toEqual([]);
  });
});

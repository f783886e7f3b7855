import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type RunResult, resourceSteps, spawnCli } from "../harness/engine";
import { killTree } from "../harness/processes";
import { openSenlinStack, type SenlinStack, senlinClusters, senlinMutations } from "../harness/senlin-stack";

// senlin.Profile and senlin.Policy through the real engine, on one stack (program `senlin-profiles`:
// a profile, a policy, and a cluster that refers to both by id): the field table, lifecycle,
// replacement, bad inputs, an interrupted run, destroy.

type Spec = Record<string, unknown>;

const SERVER = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } };
const DELETION = { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } };

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

  /** One `up` after a config change: its preview steps, its mutating calls, then an empty preview. */
  async function change(values: Record<string, unknown>): Promise<{ preview: string[]; calls: string[]; before: Record<string, unknown> }> {
    const before = outputs;
    await t.configure(values);
    const preview = stepsOf(await t.stack.preview());
    const since = await t.plane.lastSeq();
    outputs = (await t.stack.up()).outputs;
    const calls = senlinMutations(await t.plane.audit(since));
    expect(changingSteps(await t.stack.preview())).toEqual([]);
    return { preview, calls, before };
  }

  beforeAll(async () => {
    t = await openSenlinStack({ program: "senlin-profiles", timeScale: 0.1 });
  });
  afterAll(async () => {
    await t?.stack.destroy().catch(() => undefined);
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
    expect((await t.plane.audit(since)).filter((e) => e.api === "senlin")).toEqual([]);
    expect(resourceSteps(await t.stack.refresh()).filter((s) => s.diffs.length > 0)).toEqual([]);
  });

  // Rows of different resources share an up (their calls are told apart by target), as the cluster
  // field table's lanes do: each round is one preview, one up and one preview after.
  it("field table: the profile's name is one UpdateProfile; the policy's name, in the same up, one UpdatePolicy", async () => {
    const { preview, calls } = await change({ profile: { spec: SERVER, name: "web-chosen" }, policy: { spec: DELETION, name: "del-chosen" } });
    expect(preview).toEqual(["update del", "update web"]);
    expect(calls.sort()).toEqual([`UpdatePolicy ${outputs.policyId}`, `UpdateProfile ${outputs.profileId}`]);
    expect((await profiles()).find((p) => p.id === outputs.profileId)?.name).toBe("web-chosen");
    expect((await policies()).find((p) => p.id === outputs.policyId)?.name).toBe("del-chosen");
  });

  it("field table: the profile's metadata is one UpdateProfile that keeps the owner marker", async () => {
    const { preview, calls } = await change({ profile: { spec: SERVER, name: "web-chosen", metadata: { team: "web" } } });
    expect(preview).toEqual(["update web"]);
    expect(calls).toEqual([`UpdateProfile ${outputs.profileId}`]);
    expect((await profiles()).find((p) => p.id === outputs.profileId)?.metadata).toEqual({ team: "web", "clusterform.dev/owner": expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it("field table: a new spec of each is a new object, created first; the cluster switches with Senlin's update (profile) and a detach and attach (policy); then the old ones go", async () => {
    const image = { ...SERVER, properties: { ...SERVER.properties, image: "debian-12" } };
    const youngest = { ...DELETION, properties: { criteria: "YOUNGEST_FIRST" } };
    const { preview, calls, before } = await change({ profile: { spec: image, name: "web-chosen", metadata: { team: "web" } }, policy: { spec: youngest, name: "del-chosen" } });
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
    expect(outputs.nodeIds).toEqual(before.nodeIds);
    expect((await nodes()).map((n) => n.profile_id)).toEqual([outputs.profileId, outputs.profileId]);
    const [cluster] = await senlinClusters(t.plane);
    expect(cluster.bindings.map((b) => b.policy_id)).toEqual([outputs.policyId]);
    expect(await ours()).toEqual({ profiles: [outputs.profileId], policies: [outputs.policyId] });
  });

  it("bad inputs: rejected at preview naming the field, the value and what is allowed, with no Senlin call", async () => {
    const since = await t.plane.lastSeq();
    await t.configure({ profile: { spec: { type: "OS Nova", version: "v1" }, name: "1web", metadata: { "clusterform.dev/owner": "me" } } });
    const failure = await t.stack.preview().then(() => "succeeded", (err: Error) => err.message);
    expect(failure).toContain('spec.type must be a profile type: dotted lower-case words such as \\"os.nova.server\\", got \\"OS Nova\\"'.replaceAll("\\", ""));
    expect(failure).toContain('spec.version must be a plugin version such as "1.0"');
    expect(failure).toMatch(/name must be a Senlin name: .*got "1web"/);
    expect(failure).toContain('metadata key "clusterform.dev/owner" is reserved');
    expect((await t.plane.audit(since)).filter((e) => e.api === "senlin")).toEqual([]);
    await t.configure({ profile: { spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "debian-12" } }, name: "web-chosen", metadata: { team: "web" } } });
  });

  it("replacement: `up --replace` of the profile and of the policy ends with new objects the state names and the cluster moved to them", async () => {
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
    expect(cluster.bindings.map((b) => b.policy_id)).toEqual([outputs.policyId]);
    expect((await nodes()).map((n) => n.profile_id)).toEqual([outputs.profileId, outputs.profileId]);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("interrupted: killed while a new profile's create is in flight, the next up adopts it (one profile) and converges", async () => {
    const image = { ...SERVER, properties: { ...SERVER.properties, image: "debian-13" } };
    await t.configure({ profile: { spec: image, metadata: { team: "web" } } });
    // The plane holds the create 3 s before making the profile: the CLI is killed meanwhile, so the
    // profile exists and no state names it.
    await t.plane.addFault({ api: "senlin", operation: "CreateProfile", action: "delay", delayMs: 3000 } as never);
    const since = await t.plane.lastSeq();
    const cli = spawnCli(t.programDir, ["up", "--yes", "--skip-preview", "--stack", t.stack.stack.name]);
    const exited = new Promise((resolve) => cli.once("exit", resolve));
    await expect.poll(async () => (await t.plane.audit(since)).some((e) => e.operation === "ListProfiles"), { timeout: 60_000, interval: 100 }).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    killTree(cli.pid!);
    await exited;
    await expect.poll(async () => (await ours()).profiles.length, { timeout: 10_000, interval: 200 }).toBe(2);
    await t.stack.stack.cancel().catch(() => undefined);
    outputs = (await t.stack.up()).outputs;
    const creates = senlinMutations(await t.plane.audit(since)).filter((c) => c.startsWith("CreateProfile"));
    expect(creates).toHaveLength(1);
    expect((await ours()).profiles).toEqual([outputs.profileId]);
    expect((await nodes()).map((n) => n.profile_id)).toEqual([outputs.profileId, outputs.profileId]);
    expect(changingSteps(await t.stack.preview())).toEqual([]);
  });

  it("destroy leaves no profile, policy or cluster of the stack", async () => {
    await t.stack.destroy();
    expect(await ours()).toEqual({ profiles: [], policies: [] });
    expect(await senlinClusters(t.plane)).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps } from "../harness/engine";
import { openSenlinStack, SENLIN_USER, type SenlinStack, senlinClusters, senlinMutations } from "../harness/senlin-stack";

const CLUSTER = { profile: "web-profile", minSize: 1, desiredCapacity: 2, maxSize: 4, policies: [{ policy: "deletion" }] };

describe("senlin cluster: the whole lifecycle through the engine", () => {
  let t: SenlinStack;

  beforeAll(async () => {
    t = await openSenlinStack({ timeScale: 0.1 });
    await t.configure({ cluster: CLUSTER });
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("creates the cluster, waits for its create action, and attaches its policy", async () => {
    const result = await t.stack.up();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`)).toEqual(["create main"]);
    const [cluster] = await senlinClusters(t.plane);
    expect(result.outputs).toMatchObject({ id: cluster.id, name: cluster.name, status: "ACTIVE", desiredCapacity: 2, profileName: "web-profile" });
    expect(result.outputs.nodeIds).toEqual([...cluster.nodes].sort());
    expect(cluster.nodes).toHaveLength(2);
    expect([cluster.min_size, cluster.desired_capacity, cluster.max_size, cluster.status]).toEqual([1, 2, 4, "ACTIVE"]);
    expect(cluster.bindings).toEqual([{ policy_id: expect.any(String), enabled: true }]);
    expect(senlinMutations(await t.plane.audit(t.seeded))).toEqual([`CreateCluster ${cluster.name}`, `AttachClusterPolicy ${cluster.id}`]);
  });

  it("keeps the password and the token out of the stored state", async () => {
    const state = await t.stack.storedState();
    expect(state).not.toContain(SENLIN_USER.password);
    expect(state).not.toMatch(/X-Auth-Token|x-subject-token/i);
    const config = await t.stack.stack.getConfig("clusterform:senlinPassword");
    expect(config.secret).toBe(true);
  });

  it("destroys a cluster with a policy attached: detaches it, deletes, and leaves nothing", async () => {
    const [cluster] = await senlinClusters(t.plane);
    const since = await t.plane.lastSeq();
    const result = await t.stack.destroy();
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`)).toEqual(["delete main"]);
    expect(senlinMutations(await t.plane.audit(since))).toEqual([`DetachClusterPolicy ${cluster.id}`, `DeleteCluster ${cluster.id}`]);
    expect(await senlinClusters(t.plane)).toEqual([]);
    const nodes = await t.plane.admin<{ nodes: unknown[] }>("/_local/senlin/nodes");
    expect(nodes.nodes).toEqual([]);
  });
});

import { afterAll, afterEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { type SenlinResponse, type SenlinSession, senlinSession } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let s: SenlinSession;
afterEach(async () => {
  await t?.close();
});

type Cluster = { status: string; status_reason: string; nodes: string[]; desired_capacity: number; min_size: number; max_size: number; policies: string[] };

/** A plane whose cluster `web` (3 nodes, 1..5) is ACTIVE. */
async function activeCluster(size: Record<string, unknown> = { desired_capacity: 3, min_size: 1, max_size: 5 }): Promise<string> {
  t = await startTestPlane();
  s = await senlinSession(t);
  const { id } = await s.createCluster("web", size);
  t.clock.advance(3000);
  return id;
}

const cluster = async (): Promise<Cluster> => ((await s.call("GET", "/v1/clusters/web")).body as { cluster: Cluster }).cluster;
const act = (body: unknown, version?: string) => s.call("POST", "/v1/clusters/web/actions", body, version ? { version } : {});
const errorOf = (r: SenlinResponse) => (r.body as { error: { type: string; message: string } }).error;
const actionStatus = async (id: string) => ((await s.call("GET", `/v1/actions/${id}`)).body as { action: { status: string; status_reason: string; outputs: Record<string, unknown> } }).action;

async function policy(name: string, type = "senlin.policy.deletion", version = "1.1"): Promise<string> {
  const response = await s.call("POST", "/v1/policies", { policy: { name, spec: { type, version, properties: {} } } });
  expect(response.status).toBe(201);
  return (response.body as { policy: { id: string } }).policy.id;
}

describe("the actions body", () => {
  it.each([
    [{}, "No action specified"],
    [{ resize: {}, check: {} }, "Multiple actions specified"],
    [{ attach_policy: { policy_id: "p" } }, "Unrecognized action 'attach_policy' specified"],
    [{ update_policy: { policy_id: "p" } }, "Unrecognized action 'update_policy' specified"],
    [{ scale_out: [1] }, "The data provided is not a map"],
    [{ check: null }, "The data provided is not a map"],
  ])("refuses %j with 400 %j", async (body, message) => {
    await activeCluster();
    const response = await act(body);
    expect([response.status, errorOf(response).message]).toEqual([400, message]);
  });
});

describe("resize", () => {
  it.each<[string, Record<string, unknown>, number, number, number]>([
    ["EXACT_CAPACITY", { adjustment_type: "EXACT_CAPACITY", number: 5 }, 5, 1, 5],
    ["CHANGE_IN_CAPACITY", { adjustment_type: "CHANGE_IN_CAPACITY", number: -2 }, 1, 1, 5],
    ["CHANGE_IN_PERCENTAGE", { adjustment_type: "CHANGE_IN_PERCENTAGE", number: 50 }, 4, 1, 5],
    ["CHANGE_IN_PERCENTAGE with min_step", { adjustment_type: "CHANGE_IN_PERCENTAGE", number: 10, min_step: 2 }, 5, 1, 5],
    ["new bounds and capacity", { adjustment_type: "EXACT_CAPACITY", number: 8, max_size: 10, min_size: 2 }, 8, 2, 10],
    ["a truncated capacity (strict false)", { adjustment_type: "CHANGE_IN_CAPACITY", number: 9, strict: false }, 5, 1, 5],
  ])("%s: RESIZING for 2 s, then ACTIVE at the new size", async (_, params, desired, min, max) => {
    await activeCluster();
    const response = await act({ resize: params });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ action: s.actionOf(response) });
    expect(await cluster()).toMatchObject({ status: "RESIZING", desired_capacity: desired, min_size: min, max_size: max });
    t.clock.advance(2000);
    const after = await cluster();
    expect(after).toMatchObject({ status: "ACTIVE", status_reason: `CLUSTER_RESIZE: number of active nodes is equal or above desired_capacity (${desired}).` });
    expect(after.nodes).toHaveLength(desired);
    expect((await actionStatus(s.actionOf(response))).status).toBe("SUCCEEDED");
  });

  it.each<[Record<string, unknown>, string]>([
    [{}, "Not enough parameters to do resize action."],
    [{ adjustment_type: "EXACT_CAPACITY" }, "Missing number value for size adjustment."],
    [{ number: 3 }, "Missing adjustment_type value for size adjustment."],
    [{ adjustment_type: "EXACT_CAPACITY", number: -1 }, "The 'number' must be non-negative integer for adjustment type 'EXACT_CAPACITY'."],
    [{ adjustment_type: "CHANGE_IN_CAPACITY", number: 1.5 }, "Invalid value for 'number': 1.5: only CHANGE_IN_PERCENTAGE accepts a non-integer number."],
    [{ adjustment_type: "EXACT_CAPACITY", number: 6 }, "The target capacity (6) is greater than the cluster's max_size (5)."],
    [{ min_size: 4, max_size: 2 }, "The specified min_size (4) is greater than the specified max_size (2)."],
    [{ adjustment_type: "BY_MAGIC", number: 1 }, "Invalid value for 'adjustment_type': \"BY_MAGIC\""],
  ])("refuses %j with 400", async (params, message) => {
    await activeCluster();
    const response = await act({ resize: params });
    expect(response.status).toBe(400);
    expect(errorOf(response).message).toContain(message);
    expect((await cluster()).status).toBe("ACTIVE");
  });

  it("refuses a second action while one runs with 409 ActionConflict", async () => {
    await activeCluster();
    const first = await act({ resize: { adjustment_type: "EXACT_CAPACITY", number: 4 } });
    const second = await act({ scale_out: { count: 1 } });
    expect(second.status).toBe(409);
    expect(errorOf(second)).toEqual({
      code: 409,
      type: "ActionConflict",
      message: `The CLUSTER_SCALE_OUT action for target ${(await cluster() as unknown as { id: string }).id} conflicts with the following action(s): ${s.actionOf(first)}`,
    });
    t.clock.advance(2000);
    expect((await act({ scale_out: { count: 1 } })).status).toBe(202);
  });
});

describe("scale_out and scale_in", () => {
  it("adds and removes nodes by count, the youngest first", async () => {
    await activeCluster();
    const before = (await cluster()).nodes;
    await act({ scale_out: { count: 2 } });
    t.clock.advance(2000);
    expect(await cluster()).toMatchObject({ desired_capacity: 5, status: "ACTIVE" });
    const grown = (await cluster()).nodes;
    const scaleIn = await act({ scale_in: { count: 2 } });
    expect((await cluster()).status).toBe("RESIZING");
    t.clock.advance(1500);
    expect((await cluster()).nodes).toEqual(before);
    expect(grown.filter((id) => !before.includes(id))).toHaveLength(2);
    // Senlin 14 reports no outputs for a scale (nor for any action).
    expect((await actionStatus(s.actionOf(scaleIn))).outputs).toEqual({});
  });

  it.each([
    [{ scale_out: { count: 3 } }, "The target capacity (6) is greater than the cluster's max_size (5)."],
    [{ scale_in: { count: 3 } }, "The target capacity (0) is less than the cluster's min_size (1)."],
  ])("accepts %j (202) and fails its action with the size check, leaving the cluster as it was (as Senlin 14 does)", async (body, message) => {
    await activeCluster();
    const before = await cluster();
    const response = await act(body);
    expect(response.status).toBe(202);
    t.clock.advance(2000);
    expect(await actionStatus(s.actionOf(response))).toMatchObject({ status: "FAILED", status_reason: message });
    const after = await cluster();
    expect([after.status, after.status_reason, after.desired_capacity, after.nodes]).toEqual([before.status, before.status_reason, before.desired_capacity, before.nodes]);
  });

  it.each([
    [{ scale_in: { count: 0 } }, "Count for scale-in request cannot be 0."],
    [{ scale_out: { count: -1 } }, "Invalid value for 'count': -1"],
  ])("refuses %j with 400", async (body, message) => {
    await activeCluster();
    const response = await act(body);
    expect([response.status, errorOf(response).message.startsWith(message)]).toEqual([400, true]);
  });

  it("scales by one without a count, and fails the action when that leaves the bounds", async () => {
    await activeCluster({ desired_capacity: 1, min_size: 1 });
    const response = await act({ scale_in: {} });
    expect(response.status).toBe(202);
    t.clock.advance(1500);
    expect(await actionStatus(s.actionOf(response))).toMatchObject({
      status: "FAILED",
      status_reason: "The target capacity (0) is less than the cluster's min_size (1).",
    });
  });
});

describe("nodes in and out of a cluster", () => {
  async function orphan(name: string): Promise<string> {
    const response = await s.call("POST", "/v1/nodes", { node: { name, profile_id: "web-profile" } });
    expect(response.status).toBe(202);
    t.clock.advance(2000);
    return (response.body as { node: { id: string } }).node.id;
  }

  it("adds orphan nodes, deletes them again and replaces a member (1.3)", async () => {
    await activeCluster();
    const extra = await orphan("extra");
    expect((await act({ add_nodes: { nodes: ["extra"] } })).status).toBe(202);
    t.clock.advance(1000);
    expect(await cluster()).toMatchObject({ desired_capacity: 4, status: "ACTIVE" });
    expect((await cluster()).nodes).toContain(extra);
    expect((await act({ del_nodes: { nodes: [extra] } })).status).toBe(202);
    t.clock.advance(1000);
    expect((await cluster()).desired_capacity).toBe(3);
    const node = (await s.call("GET", `/v1/nodes/${extra}`)).body as { node: { cluster_id: string; index: number } };
    expect(node.node).toMatchObject({ cluster_id: "", index: -1 });
    const [old] = (await cluster()).nodes;
    expect((await act({ replace_nodes: { nodes: { [old]: extra } } }, "1.2")).status).toBe(400);
    expect((await act({ replace_nodes: { nodes: { [old]: extra } } })).status).toBe(202);
    t.clock.advance(2000);
    expect((await cluster()).nodes).toContain(extra);
    expect((await cluster()).nodes).not.toContain(old);
  });

  it("destroys deleted nodes with destroy_after_deletion (1.4)", async () => {
    await activeCluster();
    const [victim] = (await cluster()).nodes;
    expect((await act({ del_nodes: { nodes: [victim], destroy_after_deletion: true } }, "1.3")).status).toBe(400);
    expect((await act({ del_nodes: { nodes: [victim], destroy_after_deletion: true } })).status).toBe(202);
    t.clock.advance(1000);
    expect((await s.call("GET", `/v1/nodes/${victim}`)).status).toBe(404);
  });

  it("refuses a member of a cluster with 409 NodeNotOrphan, and unknown nodes with 400", async () => {
    await activeCluster();
    const [member] = (await cluster()).nodes;
    const owned = await act({ add_nodes: { nodes: [member] } });
    expect([owned.status, errorOf(owned).type]).toEqual([409, "NodeNotOrphan"]);
    const missing = await act({ del_nodes: { nodes: ["ghost"] } });
    expect([missing.status, errorOf(missing).message]).toEqual([400, "Nodes not found: ['ghost']."]);
  });
});

describe("policies", () => {
  it("attaches, updates and detaches a policy; delete is refused with 409 while attached", async () => {
    await activeCluster();
    const policyId = await policy("del");
    expect((await act({ policy_attach: { policy_id: "del", enabled: true } })).status).toBe(202);
    t.clock.advance(500);
    // The cluster lists its bindings' ids, not the policy's (as Senlin 14 does).
    const bindings = (await s.call("GET", "/v1/clusters/web/policies")).body as { cluster_policies: { id: string; policy_id: string }[] };
    expect(bindings.cluster_policies.map((b) => b.policy_id)).toEqual([policyId]);
    expect((await cluster()).policies).toEqual(bindings.cluster_policies.map((b) => b.id));
    expect((await cluster()).policies).not.toContain(policyId);
    const refused = await s.call("DELETE", "/v1/clusters/web");
    expect([refused.status, errorOf(refused).type]).toEqual([409, "ResourceInUse"]);
    expect((await s.call("DELETE", "/v1/policies/del")).status).toBe(409);
    expect((await act({ policy_update: { policy_id: "del", enabled: false } })).status).toBe(202);
    t.clock.advance(500);
    const view = (await t.http("GET", "/_local/senlin/clusters")).body as { clusters: { bindings: unknown[] }[] };
    expect(view.clusters[0].bindings).toEqual([{ policy_id: policyId, enabled: false }]);
    expect((await act({ policy_detach: { policy_id: policyId } })).status).toBe(202);
    t.clock.advance(500);
    expect((await cluster()).policies).toEqual([]);
    expect((await s.call("DELETE", "/v1/clusters/web")).status).toBe(202);
    expect((await s.call("DELETE", "/v1/policies/del")).status).toBe(204);
  });

  it("lists and shows the cluster's policy bindings; 404 PolicyBindingNotFound for one not attached", async () => {
    const clusterId = await activeCluster();
    const policyId = await policy("del");
    await policy("other", "senlin.policy.scaling", "1.0");
    await act({ policy_attach: { policy_id: "del", enabled: false } });
    t.clock.advance(500);
    const list = await s.call("GET", "/v1/clusters/web/policies");
    const expected = {
      cluster_id: clusterId,
      cluster_name: "web",
      data: null,
      enabled: false,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      last_op: null,
      policy_id: policyId,
      policy_name: "del",
      policy_type: "senlin.policy.deletion-1.1",
      priority: 100,
    };
    expect(list.body).toEqual({ cluster_policies: [expected] });
    expect(((await s.call("GET", "/v1/clusters/web/policies?enabled=true")).body as { cluster_policies: unknown[] }).cluster_policies).toEqual([]);
    expect((await s.call("GET", "/v1/clusters/web/policies/del")).body).toEqual({ cluster_policy: expected });
    const missing = await s.call("GET", "/v1/clusters/web/policies/other");
    expect([missing.status, errorOf(missing)]).toEqual([
      404,
      { code: 404, type: "PolicyBindingNotFound", message: "The policy 'other' is not found attached to the specified cluster 'web'." },
    ]);
  });

  it("fails a second policy of the same type, and refuses detaching one not attached", async () => {
    await activeCluster();
    await policy("a");
    await policy("b");
    await act({ policy_attach: { policy_id: "a" } });
    t.clock.advance(500);
    const second = await act({ policy_attach: { policy_id: "b" } });
    t.clock.advance(500);
    expect((await actionStatus(s.actionOf(second))).status).toBe("FAILED");
    const detach = await act({ policy_detach: { policy_id: "b" } });
    expect([detach.status, errorOf(detach).message]).toEqual([400, "The policy 'b' is not attached to the specified cluster 'web'."]);
  });
});

describe("check, recover, attrs and ops", () => {
  it("checks (CHECKING) and recovers (RECOVERING) the cluster", async () => {
    await activeCluster();
    await act({ check: {} });
    expect((await cluster()).status).toBe("CHECKING");
    t.clock.advance(1000);
    const recover = await act({ recover: { operation: "REBOOT", check: true } });
    expect(recover.status).toBe(202);
    expect((await cluster()).status).toBe("RECOVERING");
    t.clock.advance(2000);
    expect((await cluster()).status).toBe("ACTIVE");
    const bad = await act({ recover: { operation: "MELT" } });
    expect(errorOf(bad).message).toBe("Operation value 'MELT' has to be one of the following: REBOOT, REBUILD, RECREATE.");
    expect((await act({ recover: { check: true } }, "1.5")).status).toBe(400);
  });

  it("collects an attribute of every member (1.2)", async () => {
    await activeCluster();
    const response = await s.call("GET", "/v1/clusters/web/attrs/status");
    expect(response.status).toBe(200);
    const attrs = (response.body as { cluster_attributes: { id: string; value: unknown }[] }).cluster_attributes;
    expect(attrs.map((a) => a.value)).toEqual(["ACTIVE", "ACTIVE", "ACTIVE"]);
    expect(attrs.map((a) => a.id)).toEqual((await cluster()).nodes);
    expect((await s.call("GET", "/v1/clusters/web/attrs/status", undefined, { version: "1.1" })).status).toBe(400);
    expect((await s.call("GET", "/v1/clusters/web/attrs/None")).status).toBe(400);
  });

  it("runs a profile operation on matching members (1.4)", async () => {
    await activeCluster();
    const response = await s.call("POST", "/v1/clusters/web/ops", { reboot: { params: { type: "SOFT" } } });
    expect(response.status).toBe(202);
    expect((await cluster()).status).toBe("OPERATING");
    const unknown = await s.call("POST", "/v1/clusters/web/ops", { melt: {} });
    expect(errorOf(unknown).message).toBe("The requested operation 'melt' is not supported by the profile type 'os.nova.server-1.0'.");
    expect((await s.call("POST", "/v1/clusters/web/ops", { reboot: {} }, { version: "1.3" })).status).toBe(400);
  });
});

describe("faults", () => {
  it("fails the action a fail-operation fault names: action FAILED, cluster ERROR", async () => {
    await activeCluster();
    await t.http("POST", "/_local/faults", { api: "senlin", operation: "ScaleOutCluster", action: "fail-operation", message: "no valid host" });
    const response = await act({ scale_out: { count: 1 } });
    t.clock.advance(2000);
    expect(await actionStatus(s.actionOf(response))).toMatchObject({ status: "FAILED", status_reason: "no valid host" });
    expect(await cluster()).toMatchObject({ status: "ERROR", status_reason: "no valid host" });
    const update = await s.call("PATCH", "/v1/clusters/web", { cluster: { name: "web2" } });
    expect([update.status, errorOf(update).type]).toEqual([409, "FeatureNotSupported"]);
  });

  it("answers an error fault as the HTTP status of its code in the FaultWrapper", async () => {
    await activeCluster();
    await t.http("POST", "/_local/faults", { api: "senlin", operation: "GetCluster", action: "error", code: "UNAVAILABLE", count: 1 });
    const response = await s.call("GET", "/v1/clusters/web");
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 503, error: { code: 503, message: "simulated UNAVAILABLE fault" } });
    expect((await s.call("GET", "/v1/clusters/web")).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type EngineStack, openStack } from "../harness/engine";
import { type LocalPlane, startLocalPlane } from "../harness/local-plane";
import { realToken } from "../harness/real-senlin";
import { type RecordedCall, type RecordingProxy, startRecordingProxy } from "../harness/recording-proxy";
import { copyProgram, packageWorkspace } from "../harness/workspace";

// The provider's Senlin resources through the engine (the dynamic providers), one program run step
// by step against the real Senlin 14 and, side by side, against the local plane: every step must
// succeed on the real server, leave it as the step asks, and send it the same changes (the plane's
// audit log on one side, a recording proxy in front of the real Keystone and Senlin on the other).
const real = inject("realSenlin");

/** The operation name the plane's audit gives a Senlin call, from its method, path and body. */
const ACTION_OPERATIONS: Record<string, string> = {
  resize: "ResizeCluster",
  scale_out: "ScaleOutCluster",
  scale_in: "ScaleInCluster",
  policy_attach: "AttachClusterPolicy",
  policy_detach: "DetachClusterPolicy",
  policy_update: "UpdateClusterPolicy",
  add_nodes: "AddNodesToCluster",
  del_nodes: "DelNodesFromCluster",
};
const ROUTES: [string, RegExp, string][] = [
  ["POST", /^\/v1\/profiles$/, "CreateProfile"],
  ["PATCH", /^\/v1\/profiles\/[^/]+$/, "UpdateProfile"],
  ["DELETE", /^\/v1\/profiles\/[^/]+$/, "DeleteProfile"],
  ["POST", /^\/v1\/policies$/, "CreatePolicy"],
  ["PATCH", /^\/v1\/policies\/[^/]+$/, "UpdatePolicy"],
  ["DELETE", /^\/v1\/policies\/[^/]+$/, "DeletePolicy"],
  ["POST", /^\/v1\/clusters$/, "CreateCluster"],
  ["PATCH", /^\/v1\/clusters\/[^/]+$/, "UpdateCluster"],
  ["DELETE", /^\/v1\/clusters\/[^/]+$/, "DeleteCluster"],
];

function operationOf(call: RecordedCall): string | undefined {
  if (call.method === "POST" && /^\/v1\/clusters\/[^/]+\/actions$/.test(call.path)) return ACTION_OPERATIONS[call.bodyKeys[0]] ?? "ClusterAction";
  return ROUTES.find(([method, pattern]) => method === call.method && pattern.test(call.path))?.[2];
}

const PROFILE = (image: string) => ({ spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image, networks: [{ network: "private" }] } } });
const BATCH = { spec: { type: "senlin.policy.batch", version: "1.0", properties: { min_in_service: 1, max_batch_size: 1, pause_time: 0 } } };

let proxy: RecordingProxy;
let plane: LocalPlane;
let onReal: EngineStack;
let onPlane: EngineStack;
let token: string;

async function senlin<T>(path: string): Promise<T> {
  const response = await fetch(`${real.senlinUrl}${path}`, { headers: { "X-Auth-Token": token, "OpenStack-API-Version": "clustering 1.14" } });
  return (await response.json()) as T;
}

/** Sets the same config on both stacks, runs `up` (or destroy) on both, and answers the changes each server received. */
async function step(config: Record<string, unknown>, run: "up" | "destroy" = "up"): Promise<{ real: string[]; plane: string[] }> {
  const since = proxy.calls().length;
  const seq = await plane.lastSeq();
  const values = Object.fromEntries(Object.entries(config).map(([k, v]) => [`test:${k}`, { value: JSON.stringify(v) }]));
  await Promise.all([onReal.configure(values), onPlane.configure(values)]);
  await Promise.all([onReal[run](), onPlane[run]()]);
  const realOps = proxy
    .calls(since)
    .filter((c) => c.status < 400)
    .flatMap((c) => operationOf(c) ?? []);
  const planeOps = (await plane.audit(seq)).filter((e) => e.api === "senlin" && e.code === "OK" && !/^(Get|List)/.test(e.operation)).map((e) => e.operation);
  return { real: realOps, plane: planeOps };
}

interface RealCluster {
  id: string;
  status: string;
  desired_capacity: number;
  profile_id: string;
  nodes: string[];
}

const realCluster = async (): Promise<RealCluster> => {
  const id = String((await onReal.stack.outputs()).clusterId.value);
  return (await senlin<{ cluster: RealCluster }>(`/v1/clusters/${id}`)).cluster;
};
const realPolicies = async (id: string) => (await senlin<{ cluster_policies: { policy_name: string; enabled: boolean }[] }>(`/v1/clusters/${id}/policies`)).cluster_policies;

/** Registers the provider's steps on the real Senlin and the plane, with their stacks (real-senlin.test.ts calls it). */
export function providerSteps(): void {
  beforeAll(async () => {
    token = await realToken(real.keystoneUrl, real.user, real.password, real.project);
    proxy = await startRecordingProxy(real.keystoneUrl, real.senlinUrl);
    const workspace = packageWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0.1 });
    const credentials = (url: string, user: string, password: string, project: string) => ({
      "clusterform:senlinAuthUrl": { value: `${url}/v3` },
      "clusterform:senlinEndpoint": { value: url },
      "clusterform:senlinUsername": { value: user },
      "clusterform:senlinProjectName": { value: project },
      "clusterform:senlinPassword": { value: password, secret: true },
    });
    [onReal, onPlane] = await Promise.all([
      openStack({ programDir: copyProgram(workspace, "senlin-profiles"), config: credentials(proxy.url, real.user, real.password, real.project) }),
      openStack({ programDir: copyProgram(workspace, "senlin-profiles"), config: credentials(plane.url, "admin", "admin", "admin") }),
    ]);
  });

  afterAll(async () => {
    await onReal?.destroy().catch(() => undefined);
    await plane?.stop();
    await proxy?.close();
  });


  describe("the provider's Senlin resources on the real Senlin 14", () => {
    it("creates a profile, a deletion policy and a cluster of two nodes with the policy attached", async () => {
      const ops = await step({ profile: PROFILE("cirros"), cluster: { desiredCapacity: 2, minSize: 0, maxSize: 4 } });
      // The profile and the policy are created side by side: in either order.
      const inOrder = (list: string[]) => [...[...list.slice(0, 2)].sort(), ...list.slice(2)];
      expect(inOrder(ops.real)).toEqual(inOrder(ops.plane));
      expect(inOrder(ops.real)).toEqual(["CreatePolicy", "CreateProfile", "CreateCluster", "AttachClusterPolicy"]);
      const cluster = await realCluster();
      expect([cluster.status, cluster.desired_capacity, cluster.nodes.length]).toEqual(["ACTIVE", 2, 2]);
      expect((await realPolicies(cluster.id)).map((p) => [p.policy_name, p.enabled])).toEqual([[String((await onReal.stack.outputs()).policyName.value), true]]);
    });

    it("resizes the cluster in place", async () => {
      const ops = await step({ cluster: { desiredCapacity: 3, minSize: 0, maxSize: 4 } });
      expect(ops.real).toEqual(ops.plane);
      expect(ops.real).toEqual(["ResizeCluster"]);
      const cluster = await realCluster();
      expect([cluster.status, cluster.desired_capacity, cluster.nodes.length]).toEqual(["ACTIVE", 3, 3]);
    });

    it("rolls the cluster onto a new profile when the profile's spec changes", async () => {
      const ops = await step({ profile: PROFILE("cirros-v2") });
      expect(ops.real).toEqual(ops.plane);
      const cluster = await realCluster();
      const profileId = String((await onReal.stack.outputs()).profileId.value);
      expect(cluster.profile_id).toBe(profileId);
      const nodes = await senlin<{ nodes: { profile_id: string }[] }>(`/v1/nodes?cluster_id=${cluster.id}`);
      expect(nodes.nodes.map((n) => n.profile_id)).toEqual([profileId, profileId, profileId]);
    });

    it("attaches a second policy", async () => {
      const ops = await step({ batch: BATCH });
      expect(ops.real).toEqual(ops.plane);
      expect(ops.real).toEqual(["CreatePolicy", "AttachClusterPolicy"]);
      expect((await realPolicies((await realCluster()).id)).length).toBe(2);
    });

    // Senlin 14 lists a cluster's `policies` as binding ids; the policy's create reads the attached
    // policies from each cluster's bindings (GET /v1/clusters/{id}/policies), so the policy it
    // replaces, still attached, is never taken for a leftover.
    it("replaces the deletion policy with `up --replace`, leaving a new policy attached", async () => {
      const before = String((await onReal.stack.outputs()).policyId.value);
      const since = proxy.calls().length;
      const [realUrn, planeUrn] = await Promise.all([onReal.urnOf("del"), onPlane.urnOf("del")]);
      const planeBefore = String((await onPlane.stack.outputs()).policyId.value);
      await Promise.all([onReal.up({ replace: [realUrn] }), onPlane.up({ replace: [planeUrn] })]);
      // On the plane the replacement makes a new policy.
      expect(String((await onPlane.stack.outputs()).policyId.value)).not.toBe(planeBefore);
      // The real server must end the same way: a new policy, attached, and the old one deleted.
      const after = String((await onReal.stack.outputs()).policyId.value);
      const created = proxy.calls(since).filter((c) => operationOf(c) === "CreatePolicy" && c.status === 201);
      expect({ newId: after !== before, created: created.length }).toEqual({ newId: true, created: 1 });
    });

    it("destroys everything it made", async () => {
      const id = (await realCluster()).id;
      const ops = await step({}, "destroy");
      // The detaches and the cluster's delete come first; the profile and policies go after it, side by side, in either order.
      const settled = (list: string[]) => [...list.slice(0, 3), ...[...list.slice(3)].sort()];
      expect(settled(ops.real)).toEqual(settled(ops.plane));
      expect(settled(ops.real)).toEqual(["DetachClusterPolicy", "DetachClusterPolicy", "DeleteCluster", "DeletePolicy", "DeletePolicy", "DeleteProfile"]);
      expect((await fetch(`${real.senlinUrl}/v1/clusters/${id}`, { headers: { "X-Auth-Token": token } })).status).toBe(404);
    });
  });
}

import { describe, expect, it, vi } from "vitest";
import { type OperationContext, SILENT } from "../core/contract";
import type { Kind } from "../core/definition/kind";
import type { Calls } from "../core/plan/calls";
import { planUpdate } from "../core/plan/operation";
import { UNKNOWN } from "../core/unknown";
import { cmasshCluster } from "./cmassh/cluster/kind";
import { CLUSTER_CALLS as CMASSH_CLUSTER_CALLS, CLUSTER_UPDATE_CALLS as CMASSH_CLUSTER_UPDATE_CALLS } from "./cmassh/cluster/schema";
import { cmasshNodePool } from "./cmassh/node-pool/kind";
import { NODE_POOL_CALLS as CMASSH_POOL_CALLS, NODE_POOL_UPDATE_CALLS as CMASSH_POOL_UPDATE_CALLS } from "./cmassh/node-pool/schema";
import { cyclecloudNodePool } from "./cyclecloud/node-pool/kind";
import { NODE_POOL_CALLS as CYCLECLOUD_POOL_CALLS } from "./cyclecloud/node-pool/schema";
import type { KindType } from "./index";
import { pelotonResourcePool } from "./peloton/resource-pool/kind";
import { POOL_CALLS, POOL_UPDATE_CALLS } from "./peloton/resource-pool/schema";
import { pelotonStatelessJob } from "./peloton/stateless-job/kind";
import { JOB_CALLS, JOB_UPDATE_CALLS } from "./peloton/stateless-job/schema";
import { senlinCluster } from "./senlin/cluster/kind";
import { CLUSTER_CALLS as SENLIN_CLUSTER_CALLS, CLUSTER_UPDATE_CALLS as SENLIN_CLUSTER_UPDATE_CALLS, POLICY_ACTIONS } from "./senlin/cluster/schema";
import { senlinPolicy } from "./senlin/policy/kind";
import { POLICY_CALLS, POLICY_UPDATE_CALLS } from "./senlin/policy/schema";
import { senlinProfile } from "./senlin/profile/kind";
import { PROFILE_CALLS, PROFILE_UPDATE_CALLS } from "./senlin/profile/schema";
import { senlinReceiver } from "./senlin/receiver/kind";
import { RECEIVER_CALLS, RECEIVER_UPDATE_CALLS } from "./senlin/receiver/schema";
import { vclusterSnapshot } from "./vcluster/snapshot/kind";
import { SNAPSHOT_CALLS, SNAPSHOT_UPDATE_CALLS } from "./vcluster/snapshot/schema";
import { vclusterVCluster } from "./vcluster/vcluster/kind";
import { VCLUSTER_CALLS, VCLUSTER_UPDATE_CALLS } from "./vcluster/vcluster/schema";

// Every kind's calls are declared once (its schema.ts). This table holds each kind to its
// declaration: the field policies, the planner and the update's executor table name only those
// calls, and between them all of them. The executor table is read where update hands it to
// carryOut, which stops there; every platform client is a stub that refuses any call.

type Props = Record<string, unknown>;

const run = vi.hoisted(() => ({ executors: undefined as string[] | undefined, stopped: "stopped at carryOut: nothing is sent in this test" }));

vi.mock("../core/plan/operation", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../core/plan/operation")>()),
  carryOut: async (_kind: string, _operations: unknown, executors: object) => {
    run.executors = Object.keys(executors);
    throw new Error(run.stopped);
  },
}));

const NO_PLATFORM = vi.hoisted(
  () =>
    new Proxy(
      {},
      {
        // Not thenable, so that an async client factory can answer it.
        get: (_, key) => (key === "then" ? undefined : async () => Promise.reject(new Error(`no platform call in this test (${String(key)})`))),
      },
    ),
);

vi.mock("./cmassh/common", async (importOriginal) => ({ ...(await importOriginal<typeof import("./cmassh/common")>()), cmasshClient: async () => NO_PLATFORM }));
vi.mock("./cyclecloud/common", async (importOriginal) => ({ ...(await importOriginal<typeof import("./cyclecloud/common")>()), cycleCloudClient: async () => NO_PLATFORM }));
vi.mock("./senlin/client", async (importOriginal) => ({ ...(await importOriginal<typeof import("./senlin/client")>()), senlinClient: async () => NO_PLATFORM }));
vi.mock("./peloton/common", async (importOriginal) => ({ ...(await importOriginal<typeof import("./peloton/common")>()), pelotonClient: async () => NO_PLATFORM }));
vi.mock("./vcluster/common", async (importOriginal) => ({ ...(await importOriginal<typeof import("./vcluster/common")>()), vclusterClient: async () => NO_PLATFORM }));

/** One kind, its declared calls, and inputs and changes whose plans between them name every call. */
interface KindCalls {
  kind: Kind;
  calls: Calls;
  /** The calls its update makes. */
  updates: Calls;
  /** Policy operations that stand for several calls under a name of their own. @default none */
  groups?: readonly { operation: string; calls: readonly string[] }[];
  id: string;
  /** Inputs (with the outputs delete reads) whose create and delete are planned. */
  inputs: Props[];
  /** Old state and new inputs of updates, the first one the update whose executors are read. */
  changes: [Props, Props][];
}

const OWNED = { owner: "0123456789abcdef", resourceName: "r" };
const CLUSTER = { ...OWNED, name: "prod", kubernetesVersion: "1.31.6", controlPlane: { instanceType: "standard", count: 1 } };
const CMASSH_POOL = { ...OWNED, clusterName: "prod", name: "general", instanceType: "standard", count: 2 };
const NODES = { ...OWNED, clusterName: "hpc", nodearray: "execute", count: 2 };
const NODES_STATE = { ...NODES, nodeNames: ["execute-1", "execute-2"] };
const SENLIN = { ...OWNED, name: "web", profile: "p1", minSize: 0, maxSize: 5, desiredCapacity: 2, policies: [{ policy: "a", enabled: true }] };
const PROFILE = { ...OWNED, name: "node", spec: { type: "os.nova.server", version: "1.0", properties: {} } };
const POLICY = { ...OWNED, name: "delete-oldest", spec: { type: "senlin.policy.deletion", version: "1.0", properties: {} } };
const RECEIVER = { ...OWNED, name: "scale-out", cluster: "4a1e2b3c-5d6e-4f70-8a9b-0c1d2e3f4a5b", action: "CLUSTER_SCALE_OUT", params: { count: 1 }, type: "webhook" };
const POOL = { ...OWNED, name: "batch", parent: "root", respoolId: "0b1c2d3e-0000-4000-8000-000000000001", description: "" };
const JOB = { ...OWNED, jobId: "0b1c2d3e-0000-4000-8000-000000000002", respoolId: "pool", instanceCount: 2, defaultSpec: {}, description: "", desiredState: "RUNNING", restartNonce: 1 };
const VCLUSTER = { ...OWNED, name: "dev", namespace: "team", kubernetesVersion: "1.30.0", replicas: 1, suspended: false };
const SNAPSHOT = { ...OWNED, name: "nightly", vclusterName: "dev", namespace: "team" };

const KINDS: { readonly [T in KindType]: KindCalls } = {
  "cmassh:Cluster": {
    kind: cmasshCluster,
    calls: CMASSH_CLUSTER_CALLS,
    updates: CMASSH_CLUSTER_UPDATE_CALLS,
    id: "prod",
    inputs: [CLUSTER],
    changes: [[CLUSTER, { ...CLUSTER, kubernetesVersion: "1.32.0" }]],
  },
  "cmassh:NodePool": {
    kind: cmasshNodePool,
    calls: CMASSH_POOL_CALLS,
    updates: CMASSH_POOL_UPDATE_CALLS,
    id: "prod/general",
    inputs: [CMASSH_POOL],
    changes: [[CMASSH_POOL, { ...CMASSH_POOL, count: 3 }]],
  },
  "cyclecloud:NodePool": {
    kind: cyclecloudNodePool,
    calls: CYCLECLOUD_POOL_CALLS,
    updates: CYCLECLOUD_POOL_CALLS,
    id: "hpc/execute",
    inputs: [NODES_STATE, { ...NODES, count: undefined, coreCount: 8 }],
    changes: [
      [NODES_STATE, { ...NODES, count: 3 }],
      [NODES_STATE, { ...NODES, count: 1 }],
      [NODES_STATE, { ...NODES, count: UNKNOWN }],
      [NODES_STATE, { ...NODES, powerState: "deallocated" }],
      [NODES_STATE, { ...NODES, powerState: "off" }],
      [{ ...NODES_STATE, powerState: "deallocated" }, NODES],
    ],
  },
  "senlin:Cluster": {
    kind: senlinCluster,
    calls: SENLIN_CLUSTER_CALLS,
    updates: SENLIN_CLUSTER_UPDATE_CALLS,
    groups: [POLICY_ACTIONS],
    id: "cluster-id",
    inputs: [SENLIN],
    changes: [
      [SENLIN, { ...SENLIN, profile: "p2", desiredCapacity: 3 }],
      [SENLIN, { ...SENLIN, policies: [{ policy: "b", enabled: true }] }],
      [SENLIN, { ...SENLIN, policies: [{ policy: "a", enabled: false }] }],
    ],
  },
  "senlin:Profile": {
    kind: senlinProfile,
    calls: PROFILE_CALLS,
    updates: PROFILE_UPDATE_CALLS,
    id: "profile-id",
    inputs: [PROFILE],
    changes: [[PROFILE, { ...PROFILE, name: "node-2" }]],
  },
  "senlin:Policy": {
    kind: senlinPolicy,
    calls: POLICY_CALLS,
    updates: POLICY_UPDATE_CALLS,
    id: "policy-id",
    inputs: [POLICY],
    changes: [[POLICY, { ...POLICY, name: "delete-newest" }]],
  },
  "senlin:Receiver": {
    kind: senlinReceiver,
    calls: RECEIVER_CALLS,
    updates: RECEIVER_UPDATE_CALLS,
    id: "receiver-id",
    inputs: [RECEIVER],
    changes: [[RECEIVER, { ...RECEIVER, action: "CLUSTER_SCALE_IN", params: { count: 2 } }]],
  },
  "peloton:ResourcePool": {
    kind: pelotonResourcePool,
    calls: POOL_CALLS,
    updates: POOL_UPDATE_CALLS,
    id: POOL.respoolId,
    inputs: [POOL],
    changes: [[POOL, { ...POOL, description: "batch jobs" }]],
  },
  "peloton:StatelessJob": {
    kind: pelotonStatelessJob,
    calls: JOB_CALLS,
    updates: JOB_UPDATE_CALLS,
    id: JOB.jobId,
    inputs: [JOB],
    changes: [
      [{ ...JOB, desiredState: "KILLED" }, { ...JOB, description: "web", restartNonce: 2 }],
      [JOB, { ...JOB, desiredState: "KILLED" }],
    ],
  },
  "vcluster:VCluster": {
    kind: vclusterVCluster,
    calls: VCLUSTER_CALLS,
    updates: VCLUSTER_UPDATE_CALLS,
    id: "vcluster-id",
    inputs: [VCLUSTER, { ...VCLUSTER, restoreFrom: "snap-1" }],
    changes: [
      [{ ...VCLUSTER, suspended: true }, { ...VCLUSTER, kubernetesVersion: "1.31.0", replicas: 3 }],
      [VCLUSTER, { ...VCLUSTER, suspended: true }],
    ],
  },
  "vcluster:Snapshot": {
    kind: vclusterSnapshot,
    calls: SNAPSHOT_CALLS,
    updates: SNAPSHOT_UPDATE_CALLS,
    id: "team/nightly",
    inputs: [SNAPSHOT],
    changes: [[SNAPSHOT, { ...SNAPSHOT, description: "again" }]],
  },
};

/** The calls a policy's operation names: a group's, those joined by `/`, or the one call. */
function callsOfPolicy(operation: string, groups: KindCalls["groups"] = []): readonly string[] {
  return groups.find((g) => g.operation === operation)?.calls ?? operation.split("/");
}

/** The calls of planned operations, a pair still undecided (`A|B`) counting as both. */
const callsOf = (operations: readonly { call: string }[]): string[] => operations.flatMap((o) => o.call.split("|"));

const sorted = (names: Iterable<string>): string[] => [...new Set(names)].sort();

const context: OperationContext = { config: { get: () => undefined }, report: SILENT };

describe.each(Object.entries(KINDS))("%s names each call as its schema declares it", (_, row) => {
  const { kind, calls, updates, groups, id, inputs, changes } = row;
  const updatesPlanned = () => changes.flatMap(([olds, news]) => callsOf(planUpdate(kind.policies, kind.planner, olds, news, id).operations));

  it("names in its field policies only calls its update makes", () => {
    const named = Object.values(kind.policies).flatMap((p) => (p.kind === "update" ? callsOfPolicy(p.operation, groups) : []));
    expect(named.filter((call) => !Object.hasOwn(updates, call))).toEqual([]);
  });

  it("plans every call it declares across these inputs and changes, and no other", () => {
    const planned = [...inputs.flatMap((i) => [...callsOf(kind.planner.create(i)), ...callsOf(kind.planner.delete(i, id))]), ...updatesPlanned()];
    expect(sorted(planned)).toEqual(sorted(Object.keys(calls)));
  });

  it("plans in its updates exactly the update calls it declares", () => {
    expect(sorted(updatesPlanned())).toEqual(sorted(Object.keys(updates)));
  });

  it("hands carryOut an executor for each update call, in declaration order, and for no other", async () => {
    const [olds, news] = changes[0];
    run.executors = undefined;
    const plan = { ...planUpdate(kind.policies, kind.planner, olds, news, id), operations: [] };
    await expect((await kind.operations()).update(context, id, olds, news, plan)).rejects.toThrow(run.stopped);
    expect(run.executors).toEqual(Object.keys(updates));
  });
});

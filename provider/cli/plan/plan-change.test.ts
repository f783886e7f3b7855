import { beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../core/unknown";
import { planChange } from "./plan-change";
import { readPlanJson } from "./preview-json";
import { loadKinds } from "./planners";

// Native replacements read the kind's identity from its handler: load them from the sources.
beforeAll(loadKinds);

const calls = (type: string, op: string, olds: Record<string, unknown> | undefined, news: Record<string, unknown> | undefined, id?: string) =>
  (planChange({ type: `pulumi-nodejs:dynamic/${type}`, op, id, olds, news })?.operations ?? []).map((o) => ({ call: o.call, target: o.target, args: o.args, disruptions: o.disruptions ?? [] }));

const pool = { clusterName: "demo", nodearray: "execute", owner: "o1", resourceName: "p" };

describe("planChange: each kind's platform calls from old state and new inputs", () => {
  it("cyclecloud: a lower count removes the newest nodes by name; a higher one adds the difference", () => {
    const olds = { ...pool, count: 4, nodeNames: ["execute-1", "execute-2", "execute-3", "execute-4"], coresPerNode: 2 };
    expect(calls("cyclecloud:NodePool", "update", olds, { ...pool, count: 1 }, "id")).toEqual([
      { call: "RemoveNodes", target: "demo", args: { names: ["execute-4", "execute-3", "execute-2"] }, disruptions: ["capacity-removed"] },
    ]);
    expect(calls("cyclecloud:NodePool", "update", olds, { ...pool, coreCount: 11 }, "id")).toEqual([
      { call: "CreateNodes", target: "demo", args: { count: 2, nodearray: "execute", machineType: undefined }, disruptions: [] },
    ]);
  });

  it("cyclecloud: a count unknown at preview is flagged, not guessed", () => {
    const [only] = calls("cyclecloud:NodePool", "update", { ...pool, count: 2, nodeNames: ["a", "b"] }, { ...pool, count: UNKNOWN }, "id");
    expect(only.disruptions).toContain("unknown-values");
  });

  it("a replacement deletes first by default and creates first under deleteBeforeReplace: false", () => {
    const olds = { ...pool, count: 1, nodeNames: ["execute-1"] };
    const news = { ...pool, count: 1, machineType: "F4" };
    expect(calls("cyclecloud:NodePool", "replace", olds, news, "id").map((c) => c.call)).toEqual(["RemoveNodes", "CreateNodes"]);
    expect(calls("cyclecloud:NodePool", "replace", olds, { ...news, deleteBeforeReplace: false }, "id").map((c) => c.call)).toEqual(["CreateNodes", "RemoveNodes"]);
    const plan = planChange({ type: "pulumi-nodejs:dynamic/cyclecloud:NodePool", op: "replace", id: "id", olds, news });
    expect([plan?.order, plan?.replaces]).toEqual(["delete-first", ["machineType"]]);
  });

  it("cma-ssh: a version change checks the offer, then upgrades", () => {
    const c = { name: "c1", kubernetesVersion: "1.30.10", owner: "o", resourceName: "c" };
    expect(calls("cmassh:Cluster", "update", c, { ...c, kubernetesVersion: "1.31.2" }, "c1")).toEqual([
      { call: "GetUpgradeClusterInformation", target: "c1", args: { version: "1.31.2" }, disruptions: [] },
      { call: "UpgradeCluster", target: "c1", args: { from: "1.30.10", to: "1.31.2" }, disruptions: ["upgrade"] },
    ]);
  });

  it("senlin: PATCH, resize, then policies, each once", () => {
    const c = { profile: "p", minSize: 1, desiredCapacity: 3, maxSize: 5, policies: [{ policy: "a", enabled: true }], owner: "o", resourceName: "s" };
    const news = { ...c, name: "web", desiredCapacity: 1, policies: [{ policy: "b", enabled: true }] };
    expect(calls("senlin:Cluster", "update", c, news, "sid").map((x) => [x.call, x.target, x.disruptions])).toEqual([
      ["UpdateCluster", "sid", []],
      ["ResizeCluster", "sid", ["capacity-removed"]],
      ["DetachClusterPolicy", "sid", []],
      ["AttachClusterPolicy", "sid", []],
    ]);
  });

  it("senlin: a binding whose enabled the state left unset (OpenTofu's null) is enabled: a new policy beside it is one attach", () => {
    const c = { profile: "p", minSize: 1, maxSize: 3, policies: [{ policy: "a", enabled: null }], owner: "o", resourceName: "s" };
    const news = { ...c, policies: [{ policy: "a", enabled: null }, { policy: "b", enabled: null }] };
    expect(calls("senlin:Cluster", "update", c, news, "sid").map((x) => [x.call, x.args])).toEqual([["AttachClusterPolicy", { policy: "b", enabled: true }]]);
    expect(calls("senlin:Cluster", "update", c, { ...c, policies: [{ policy: "a", enabled: false }] }, "sid").map((x) => x.call)).toEqual(["UpdateClusterPolicy"]);
  });

  it("peloton: a new image is a rolling update in batches; a stop is flagged", () => {
    const job = { respoolId: "rp", instanceCount: 40, defaultSpec: { containers: [{ name: "w", image: "a:1" }] }, updatePolicy: { batchSize: 2 }, owner: "o", resourceName: "j" };
    const [roll] = planChange({ type: "pulumi-nodejs:dynamic/peloton:StatelessJob", op: "update", id: "j1", olds: job, news: { ...job, defaultSpec: { containers: [{ name: "w", image: "a:2" }] } } })?.operations ?? [];
    expect([roll.call, roll.args.batchSize, roll.disruptions, roll.summary]).toEqual(["ReplaceJob", 2, ["restarts"], "rolling update of 40 instance(s) in batches of 2 (20 batch(es)): defaultSpec"]);
    expect(calls("peloton:StatelessJob", "update", job, { ...job, desiredState: "KILLED" }, "j1").map((x) => [x.call, x.disruptions])).toEqual([["StopJob", ["capacity-removed"]]]);
  });

  it("senlin profiles and policies: a new name is one PATCH; a new spec is a new object created first, then the old one deleted", () => {
    const spec = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } };
    const profile = { name: "web", spec, owner: "o", resourceName: "p" };
    expect(calls("senlin:Profile", "update", profile, { ...profile, name: "web-2" }, "pid")).toEqual([
      { call: "UpdateProfile", target: "pid", args: { name: "web-2" }, disruptions: [] },
    ]);
    const newSpec = { ...spec, properties: { ...spec.properties, image: "cirros-2" } };
    expect(calls("senlin:Profile", "replace", profile, { ...profile, spec: newSpec, deleteBeforeReplace: false }, "pid").map((c) => [c.call, c.disruptions])).toEqual([
      ["CreateProfile", ["unknown-values"]],
      ["DeleteProfile", ["deletes"]],
    ]);
    const policy = { name: "lb", spec, owner: "o", resourceName: "q" };
    expect(calls("senlin:Policy", "update", policy, { ...policy, name: "lb-2" }, "qid").map((c) => c.call)).toEqual(["UpdatePolicy"]);
    const receiver = { name: "up", cluster: "4a1e2b3c-5d6e-4f70-8a9b-0c1d2e3f4a5b", action: "CLUSTER_SCALE_OUT", type: "webhook", owner: "o", resourceName: "r" };
    expect(calls("senlin:Receiver", "update", receiver, { ...receiver, params: { count: 2 } }, "rid")).toEqual([
      { call: "UpdateReceiver", target: "rid", args: { params: { count: 2 } }, disruptions: [] },
    ]);
  });

  it("a resource of another package has no plan", () => {
    expect(planChange({ type: "aws:s3/bucket:Bucket", op: "update", olds: {}, news: {} })).toBeUndefined();
  });
});

describe("planChange on the native plugin's preview (Pulumi names, no hidden order input)", () => {
  it("reads a native job's `owner` as its jobOwner: a changed owner is the ReplaceJob `up` sends", () => {
    const urn = "urn:pulumi:ci::p::clusterform:peloton:StatelessJob::web";
    const state = { respoolId: "rp", instanceCount: 2, updatePolicy: { batchSize: 1 }, jobId: "j1", owner: "alice" };
    const text = JSON.stringify({ steps: [{ op: "update", urn, oldState: { type: "clusterform:peloton:StatelessJob", id: "j1", inputs: state, outputs: state }, newState: { type: "clusterform:peloton:StatelessJob", inputs: { ...state, owner: "bob" } } }] });
    const [change] = readPlanJson(text).changes;
    expect(change.news?.jobOwner).toBe("bob");
    expect(planChange(change)?.operations.map((o) => [o.call, o.target, o.args.fields])).toEqual([["ReplaceJob", "j1", ["jobOwner"]]]);
  });

  it("orders a native replacement as the plugin does: create first under a new derived name, delete first under the same name", () => {
    const type = "clusterform:cmassh:NodePool";
    const urn = `urn:pulumi:ci::p::${type}::pool`;
    const olds = { clusterName: "prod", name: "pool-1a2b3c4", instanceType: "standard", count: 2 };
    const step = (news: Record<string, unknown>) => planChange({ type, urn, op: "replace", id: "prod/x", olds, news });
    const renamed = step({ ...olds, name: "pool-5d6e7f8", instanceType: "gpu" });
    expect([renamed?.order, renamed?.operations.map((o) => o.call)]).toEqual(["create-first", ["AddNodePool", "DeleteNodePool"]]);
    const same = step({ ...olds, instanceType: "gpu" });
    expect([same?.order, same?.operations.map((o) => o.call)]).toEqual(["delete-first", ["DeleteNodePool", "AddNodePool"]]);
  });
});

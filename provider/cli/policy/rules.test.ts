import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../core/unknown";
import { type PolicyResource, policyChange } from "./change";
import { loadOldState, oldResourcesOf } from "./old-state";
import { checkBatchSize, checkReplacement, checkScaleDown, checkVersion, removedBy } from "./rules";
import { loadKinds } from "../plan/planners";

// Native replacements read the kind's identity from its handler: load them from the sources.
beforeAll(loadKinds);

const DYN = "pulumi-nodejs:dynamic/";
const plane = { instanceType: "standard", count: 1 };
const cluster = { name: "prod", kubernetesVersion: "1.30.10", controlPlane: plane };
const pool = { clusterName: "prod", name: "work", instanceType: "standard", count: 5 };
const job = (instanceCount: unknown, batchSize?: unknown) => ({
  respoolId: "rp-1",
  instanceCount,
  defaultSpec: { containers: [{ name: "web", image: "nginx:1.27" }] },
  ...(batchSize === undefined ? {} : { updatePolicy: { batchSize } }),
});

/** A resource named `name` of `type` moving from `olds` to `news`, with its change as the pack plans it. */
function subject(type: string, name: string, olds: Record<string, unknown> | undefined, news: Record<string, unknown> | undefined) {
  const resource: PolicyResource = { urn: `urn:pulumi:dev::p::${type}::${name}`, name, type, olds, news, id: olds ? name : undefined };
  const change = policyChange(resource);
  if (!change) throw new Error(`no change planned for ${type}`);
  return { resource, change };
}

describe("clusterform-cluster-replacement", () => {
  it.each([
    ["a replaced cluster is refused", `${DYN}cmassh:Cluster`, cluster, { ...cluster, controlPlane: { ...plane, instanceType: "gpu" } }, {}, 1],
    ["a deleted cluster is refused", `${DYN}cmassh:Cluster`, cluster, undefined, {}, 1],
    ["a native cluster's replacement too", "clusterform:cmassh:Cluster", cluster, { ...cluster, controlPlane: { ...plane, count: 3 } }, {}, 1],
    ["an upgrade in place passes", `${DYN}cmassh:Cluster`, cluster, { ...cluster, kubernetesVersion: "1.31.6" }, {}, 0],
    ["a replaced pool is not a cluster", `${DYN}cmassh:NodePool`, pool, { ...pool, instanceType: "gpu" }, {}, 0],
    ["the config's kinds guard pools too", `${DYN}cmassh:NodePool`, pool, { ...pool, instanceType: "gpu" }, { kinds: ["cmassh:NodePool"] }, 1],
    ["a name in allow passes", `${DYN}cmassh:Cluster`, cluster, undefined, { allow: ["main"] }, 0],
    ["* allows every one", `${DYN}cmassh:Cluster`, cluster, undefined, { allow: ["*"] }, 0],
  ])("%s", (_title, type, olds, news, config, count) => {
    const { resource, change } = subject(type, "main", olds, news);
    expect(checkReplacement(resource, change, config)).toHaveLength(count);
  });

  it("follows the object's own deletionPolicy on a delete: abandoned is no deletion, protected is refused even when allowed", () => {
    const abandoned = subject(`${DYN}cmassh:Cluster`, "main", { ...cluster, deletionPolicy: "abandon" }, undefined);
    expect(abandoned.change.plan.operations).toEqual([]);
    expect(checkReplacement(abandoned.resource, abandoned.change, {})).toEqual([]);
    // Any kind that has the policy, guarded or not, and whatever `allow` says: its delete would fail.
    const protectedPool = subject(`${DYN}peloton:ResourcePool`, "main", { name: "web", parent: "root", deletionPolicy: "protect" }, undefined);
    expect(checkReplacement(protectedPool.resource, protectedPool.change, { allow: ["*"] })).toEqual([
      'peloton:ResourcePool main is protected (deletionPolicy "protect"): its delete would fail; set deletionPolicy to "delete" and run that update first',
    ]);
  });

  it("names the fields that force it and the order the replacement takes", () => {
    const { resource, change } = subject(`${DYN}cmassh:Cluster`, "main", cluster, { ...cluster, controlPlane: { ...plane, count: 3 }, deleteBeforeReplace: true });
    expect(checkReplacement(resource, change, {})).toEqual([
      'cmassh:Cluster main would be replaced because controlPlane changed; the old one is deleted first; add its name to the config value "allow" of clusterform-cluster-replacement to let it happen',
    ]);
  });

  it("orders a native replacement as the plugin does: create first under a new derived name, delete first under the same name", () => {
    const guarded = { kinds: ["cmassh:NodePool"] };
    const derived = subject("clusterform:cmassh:NodePool", "main", { ...pool, name: "main-1a2b3c4" }, { ...pool, name: "main-5d6e7f8", instanceType: "gpu" });
    expect(checkReplacement(derived.resource, derived.change, guarded).join()).toContain("the new one is created first");
    const named = subject("clusterform:cmassh:NodePool", "main", pool, { ...pool, instanceType: "gpu" });
    expect(checkReplacement(named.resource, named.change, guarded).join()).toContain("the old one is deleted first");
  });
});

describe("clusterform-max-scale-down", () => {
  it.each([
    ["cma-ssh pool 5 -> 1 removes 4", `${DYN}cmassh:NodePool`, pool, { ...pool, count: 1 }, 4],
    ["a scale-up removes none", `${DYN}cmassh:NodePool`, pool, { ...pool, count: 9 }, 0],
    ["a size unknown at preview removes none known", `${DYN}cmassh:NodePool`, pool, { ...pool, count: UNKNOWN }, 0],
    ["CycleCloud removes the named nodes", `${DYN}cyclecloud:NodePool`, { clusterName: "demo", nodearray: "execute", count: 3, nodeNames: ["e-1", "e-2", "e-3"] }, { clusterName: "demo", nodearray: "execute", count: 1 }, 2],
    ["a Peloton job's lower count", `${DYN}peloton:StatelessJob`, job(6, 1), job(2, 1), 4],
    ["a stopped job removes all its instances", `${DYN}peloton:StatelessJob`, job(6, 1), { ...job(6, 1), desiredState: "KILLED" }, 6],
  ])("%s", (_title, type, olds, news, removed) => {
    const { change } = subject(type, "x", olds, news);
    expect(removedBy(change, olds)).toBe(removed);
  });

  it("refuses more than maxRemoved (default 2) and passes up to it", () => {
    const { resource, change } = subject(`${DYN}cmassh:NodePool`, "work", pool, { ...pool, count: 2 });
    expect(checkScaleDown(resource, change, {})).toEqual([
      'cmassh:NodePool work would remove 3 instance(s) or node(s) in one change (scales down from 5 to 2 machine(s): 3 removed); at most 2 allowed (config value "maxRemoved")',
    ]);
    expect(checkScaleDown(resource, change, { maxRemoved: 3 })).toEqual([]);
  });
});

describe("clusterform-rolling-update-batch-size", () => {
  it.each([
    ["batch equal to the job's size", job(4, 4), {}, 1],
    ["no batch size is Peloton's 1", job(4), {}, 0],
    ["batch below the size", job(4, 2), {}, 0],
    ["a job of one instance cannot roll in smaller batches", job(1, 1), {}, 0],
    ["values unknown at preview", job(UNKNOWN, 4), {}, 0],
    ["minBatches 3 needs a smaller batch", job(4, 2), { minBatches: 3 }, 1],
    ["minBatches 1 allows one batch", job(4, 4), { minBatches: 1 }, 0],
  ])("%s", (_title, news, config, count) => {
    const { resource, change } = subject(`${DYN}peloton:StatelessJob`, "web", undefined, news);
    expect(checkBatchSize(resource, change, config)).toHaveLength(count);
  });
});

describe("clusterform-version-offered", () => {
  const offered = { offered: { "cmassh:Cluster": ["1.30.10", "1.31.6"], "vcluster:VCluster": ["1.30.2"] } };
  it.each([
    ["an upgrade to a version not offered", `${DYN}cmassh:Cluster`, cluster, { ...cluster, kubernetesVersion: "1.32.0" }, offered, 1],
    ["an upgrade to an offered one", `${DYN}cmassh:Cluster`, cluster, { ...cluster, kubernetesVersion: "1.31.6" }, offered, 0],
    ["a create with a version not offered", `${DYN}cmassh:Cluster`, undefined, { ...cluster, kubernetesVersion: "1.29.0" }, offered, 1],
    ["no list for the kind: not known, no verdict", `${DYN}cmassh:Cluster`, cluster, { ...cluster, kubernetesVersion: "1.32.0" }, {}, 0],
    ["an empty list of lists: not known either", `${DYN}cmassh:Cluster`, cluster, { ...cluster, kubernetesVersion: "1.32.0" }, { offered: {} }, 0],
    ["an unchanged cluster sets no version", `${DYN}cmassh:Cluster`, { ...cluster, kubernetesVersion: "1.29.0" }, { ...cluster, kubernetesVersion: "1.29.0" }, offered, 0],
    ["a version unknown at preview", `${DYN}cmassh:Cluster`, cluster, { ...cluster, kubernetesVersion: UNKNOWN }, offered, 0],
    [
      "a vcluster upgrade",
      `${DYN}vcluster:VCluster`,
      { namespace: "team", name: "dev", kubernetesVersion: "1.30.2" },
      { namespace: "team", name: "dev", kubernetesVersion: "1.31.0" },
      offered,
      1,
    ],
  ])("%s", (_title, type, olds, news, config, count) => {
    const { resource, change } = subject(type, "main", olds, news);
    expect(checkVersion(resource, change, config)).toHaveLength(count);
  });
});

describe("the old state of `pulumi stack export`", () => {
  it("keeps Clusterform's custom resources by URN, native ones renamed to definition keys, and leaves out pending deletes", () => {
    const exported = {
      deployment: {
        resources: [
          { urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev", type: "pulumi:pulumi:Stack", custom: false },
          { urn: "urn:a", type: `${DYN}cmassh:NodePool`, custom: true, id: "prod/work", inputs: pool, outputs: { ...pool, status: "RUNNING" } },
          { urn: "urn:b", type: "clusterform:peloton:StatelessJob", custom: true, id: "j-1", outputs: { ...job(2), owner: "team-a" } },
          { urn: "urn:c", type: `${DYN}cmassh:NodePool`, custom: true, delete: true, id: "old", outputs: pool },
          { urn: "urn:d", type: "aws:s3/bucket:Bucket", custom: true, id: "b", outputs: {} },
        ],
      },
    };
    const state = oldResourcesOf(exported);
    expect([...state.keys()]).toEqual(["urn:a", "urn:b"]);
    expect(state.get("urn:a")?.props.status).toBe("RUNNING");
    expect(state.get("urn:b")?.props.jobOwner).toBe("team-a");
  });

  it("fails naming the stack, the command and the variables that change it when the CLI cannot export", async () => {
    const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/cmassh:Cluster::main";
    await expect(loadOldState(urn, { pulumi: "/nonexistent/pulumi" })).rejects.toThrow(
      /cannot read the last state of stack organization\/p\/dev with `\/nonexistent\/pulumi stack export`: .*ENOENT.*CLUSTERFORM_POLICY_STATE_FILE.*CLUSTERFORM_POLICY_PULUMI/,
    );
  });
});

it("policy/package.json carries the package's version (the engine shows it as the pack's)", () => {
  const root = path.join(__dirname, "..", "..", "..");
  const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8")).version;
  expect(read("policy/package.json")).toBe(read("package.json"));
});

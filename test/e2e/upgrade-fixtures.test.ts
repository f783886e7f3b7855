import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import type { Deployment } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KINDS } from "../harness/all-kinds";
import { changingSteps, type EngineStack, openStack, type RunResult, repoRoot, resourceSteps } from "../harness/engine";
import { type LocalPlane, startLocalPlane } from "../harness/local-plane";
import { workDir } from "../harness/paths";
import { packageWorkspace } from "../harness/workspace";

// Upgrade safety: each directory under test/fixtures/upgrade holds a stack as a release left it
// (scripts/write-upgrade-fixture.sh). The current package takes it over in a fresh backend, against
// a plane seeded with the same objects: preview plans nothing, refresh changes nothing, destroy
// removes every object. A release adds its own directory; the older ones keep passing.

const FIXTURES = path.join(repoRoot(), "test", "fixtures", "upgrade");

/** What scripts/write-upgrade-fixture.mjs records beside the state. */
interface FixtureMeta {
  version: string;
  stack: string;
  project: string;
  planeFlags: string[];
  timeScale: number;
  /** The plane's URL when the fixture was written. */
  recordedEndpoint: string;
}

/** A resource as `pulumi stack export` lists it. */
interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/**
 * The platform objects a resource of each kind stands for, as `<kind> <identity>` strings that
 * {@link inventory} also produces: the state and the plane are compared through them.
 */
const OBJECTS_OF: Record<string, (r: StateResource) => string[]> = {
  "cmassh:Cluster": (r) => [`cmassh:Cluster ${r.id}`],
  "cmassh:NodePool": (r) => [`cmassh:NodePool ${r.id}`],
  "peloton:ResourcePool": (r) => [`peloton:ResourcePool ${r.id}`],
  "peloton:StatelessJob": (r) => [`peloton:StatelessJob ${r.id}`],
  "vcluster:VCluster": (r) => [`vcluster:VCluster ${r.id}`],
  "vcluster:Snapshot": (r) => [`vcluster:Snapshot ${r.id}`],
  "senlin:Cluster": (r) => [`senlin:Cluster ${r.id}`, ...nodeIds(r).map((n) => `senlin:Node ${n}`)],
  "cyclecloud:NodePool": (r) => nodeIds(r).map((n) => `cyclecloud:Node ${n}`),
};

function nodeIds(r: StateResource): string[] {
  const ids = r.outputs?.nodeIds;
  if (!Array.isArray(ids)) throw new Error(`${r.urn} has no nodeIds output in the fixture state`);
  return ids as string[];
}

interface Views {
  cmassh: { clusters: { name: string; pools: { name: string }[] }[] };
  respools: { respools: { id: string }[] };
  jobs: { jobs: { id: string }[] };
  vclusters: { vclusters: { id: string }[] };
  snapshots: { snapshots: { id: string }[] };
  senlinClusters: { clusters: { id: string }[] };
  senlinNodes: { nodes: { id: string }[] };
  ccNodes: { nodes: { id: string; state: string }[] };
}

/** Every object of a managed kind the plane holds, from its admin views (the root pool is Peloton's own). */
async function inventory(plane: LocalPlane): Promise<string[]> {
  const view = <K extends keyof Views>(p: string) => plane.admin<Views[K]>(p);
  const [cmassh, respools, jobs, vclusters, snapshots, senlinClusters, senlinNodes, ccNodes] = await Promise.all([
    view<"cmassh">("/_local/cmassh/clusters"),
    view<"respools">("/_local/peloton/respools"),
    view<"jobs">("/_local/peloton/jobs"),
    view<"vclusters">("/_local/vcluster/vclusters"),
    view<"snapshots">("/_local/vcluster/snapshots"),
    view<"senlinClusters">("/_local/senlin/clusters"),
    view<"senlinNodes">("/_local/senlin/nodes"),
    view<"ccNodes">("/_local/cyclecloud/nodes"),
  ]);
  return [
    ...cmassh.clusters.flatMap((c) => [`cmassh:Cluster ${c.name}`, ...c.pools.map((p) => `cmassh:NodePool ${c.name}/${p.name}`)]),
    ...respools.respools.filter((p) => p.id !== "root").map((p) => `peloton:ResourcePool ${p.id}`),
    ...jobs.jobs.map((j) => `peloton:StatelessJob ${j.id}`),
    ...vclusters.vclusters.map((v) => `vcluster:VCluster ${v.id}`),
    ...snapshots.snapshots.map((s) => `vcluster:Snapshot ${s.id}`),
    ...senlinClusters.clusters.map((c) => `senlin:Cluster ${c.id}`),
    ...senlinNodes.nodes.map((n) => `senlin:Node ${n.id}`),
    ...ccNodes.nodes.map((n) => `cyclecloud:Node ${n.id}`),
  ].sort();
}

/** `cmassh:Cluster` from `pulumi-nodejs:dynamic/cmassh:Cluster`; undefined for the stack and providers. */
function kindOf(r: { type: string }): string | undefined {
  return r.type.startsWith("pulumi-nodejs:dynamic/") ? r.type.slice("pulumi-nodejs:dynamic/".length) : undefined;
}

function userResources(deployment: Deployment): StateResource[] {
  return ((deployment.deployment.resources ?? []) as StateResource[]).filter((r) => kindOf(r) !== undefined);
}

function fixtureDirs(): string[] {
  return readdirSync(FIXTURES)
    .filter((d) => existsSync(path.join(FIXTURES, d, "fixture.json")))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

const versions = fixtureDirs();
const newest = versions.at(-1);

/**
 * Kinds no fixture holds yet: the fixture program (test/fixtures/upgrade/program) was written before
 * they joined the kinds the reliability matrix lists. The next release's fixture adds them (to the
 * program and to {@link OBJECTS_OF}); then this list empties, which the test below asks for.
 */
const NOT_IN_FIXTURES_YET: readonly string[] = ["senlin:Profile", "senlin:Policy"];

it("finds the fixtures, the newest holding every resource kind but those no fixture holds yet", () => {
  expect(versions.length).toBeGreaterThan(0);
  const state = JSON.parse(readFileSync(path.join(FIXTURES, `${newest}`, "state.json"), "utf8")) as Deployment;
  expect([...new Set(userResources(state).map(kindOf))].sort()).toEqual(KINDS.filter((k) => !NOT_IN_FIXTURES_YET.includes(k)).sort());
});

describe.each(versions)("the stack written by release %s", (version) => {
  const dir = path.join(FIXTURES, version);
  const meta = JSON.parse(readFileSync(path.join(dir, "fixture.json"), "utf8")) as FixtureMeta;
  const stateText = readFileSync(path.join(dir, "state.json"), "utf8");
  const configText = readFileSync(path.join(dir, `Pulumi.${meta.stack}.yaml`), "utf8");
  const recorded = JSON.parse(stateText) as Deployment;
  const resources = userResources(recorded);

  let plane: LocalPlane;
  let stack: EngineStack;
  let imported: Deployment;
  let seeded: string[];
  let preview: RunResult;

  beforeAll(async () => {
    // The package under test, installed as users install it.
    const workspace = packageWorkspace();
    // The plane writes to its data folder: it starts on a copy, never on the committed file.
    const dataDir = mkdtempSync(path.join(workDir(), "plane-upgrade-"));
    cpSync(path.join(dir, "plane"), dataDir, { recursive: true });
    plane = await startLocalPlane({ workspace, dataDir, timeScale: meta.timeScale, flags: meta.planeFlags });
    const programDir = mkdtempSync(path.join(workspace, `upgrade-${version}-`));
    for (const file of ["Pulumi.yaml", "index.js", `Pulumi.${meta.stack}.yaml`]) cpSync(path.join(dir, file), path.join(programDir, file));
    // The same stack name as the fixture's: URNs and ownership markers derive from it.
    stack = await openStack({ programDir, stackName: meta.stack });
    // Pulumi records the provider configuration in the state, and refresh and destroy use it: the
    // recorded endpoint (an exact string value) becomes this plane's, as if it had kept its port.
    imported = JSON.parse(stateText.replaceAll(JSON.stringify(meta.recordedEndpoint), JSON.stringify(plane.url))) as Deployment;
    await stack.stack.importStack(imported);
    await stack.setConfig("clusterform:endpoint", plane.url);
    seeded = await inventory(plane);
    preview = await stack.preview();
  });

  afterAll(async () => {
    await plane?.stop();
  });

  it("records the plane's address nowhere but in the provider configuration", () => {
    const host = new URL(meta.recordedEndpoint).host;
    const holders = ((recorded.deployment.resources ?? []) as StateResource[]).filter((r) => JSON.stringify(r).includes(host));
    expect(holders.map((r) => r.type)).toEqual(["pulumi:providers:pulumi-nodejs"]);
    expect(JSON.stringify(imported)).not.toContain(host);
  });

  it("keeps the passwords and the kubeconfig encrypted in the state and the config", () => {
    const passwords = meta.planeFlags.filter((_, i) => meta.planeFlags[i - 1]?.endsWith("-password"));
    expect(passwords.length).toBeGreaterThan(0);
    for (const password of passwords) {
      expect(stateText).not.toContain(password);
      expect(configText).not.toContain(password);
    }
    const cluster = resources.find((r) => kindOf(r) === "cmassh:Cluster");
    expect(cluster?.outputs?.kubeconfig).toHaveProperty("ciphertext");
  });

  it("starts from a plane holding exactly the objects the state lists", () => {
    expect(seeded).toEqual(resources.flatMap((r) => OBJECTS_OF[kindOf(r) ?? ""](r)).sort());
  });

  it.each(resources.map((r) => [`${kindOf(r)} ${r.urn.split("::").at(-1)}`, r.urn]))(
    "previews %s with no change and no replacement",
    (_, urn) => {
      const steps = resourceSteps(preview).filter((s) => s.urn === urn);
      expect(steps.map((s) => ({ op: s.op, diffs: s.diffs, replaceKeys: s.replaceKeys }))).toEqual([{ op: "same", diffs: [], replaceKeys: [] }]);
    },
  );

  it("previews no step that changes anything", () => {
    expect(changingSteps(preview)).toEqual([]);
  });

  it("refreshes every resource without changing its inputs or outputs", async () => {
    const recordedNow = async () => Object.fromEntries(userResources(await stack.exportState()).map((r) => [r.urn, { inputs: r.inputs, outputs: r.outputs }]));
    const before = await recordedNow();
    const refresh = await stack.refresh();
    expect(
      resourceSteps(refresh)
        .filter((s) => kindOf(s) !== undefined)
        .map((s) => `${s.op} ${s.urn}${s.failed ? " failed" : ""}`)
        .sort(),
    ).toEqual(resources.map((r) => `refresh ${r.urn}`).sort());
    expect(await recordedNow()).toEqual(before);
    expect(await inventory(plane)).toEqual(seeded);
  });

  it("destroys every object the state lists, leaving the plane empty", async () => {
    const destroy = await stack.destroy();
    expect(
      resourceSteps(destroy)
        .filter((s) => !s.failed)
        .map((s) => `${s.op} ${s.urn}`)
        .sort(),
    ).toEqual(resources.map((r) => `delete ${r.urn}`).sort());
    expect(await inventory(plane)).toEqual([]);
    expect(userResources(await stack.exportState())).toEqual([]);
  });
});

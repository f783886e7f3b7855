import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ClusterStatus } from "../../proto/gen/cmassh/api_pb";
import { makeDataDir, removeDataDirs, startTestPlane, type TestPlane } from "../testing";

afterAll(removeDataDirs);

let t: TestPlane | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The seed file docs/local-plane.md shows: objects of every platform. */
const WORLD = readFileSync(path.join(__dirname, "example-seed.yaml"), "utf8");

function seedFile(text: string, name = "seed.yaml"): string {
  const file = path.join(makeDataDir(), name);
  writeFileSync(file, text);
  return file;
}

const get = async <T>(plane: TestPlane, p: string) => (await plane.http("GET", p)).body as T;

async function expectWorld(plane: TestPlane): Promise<void> {
  const legacy = (await plane.cmassh.getCluster({ name: "legacy" })).cluster!;
  expect(legacy.status).toBe(ClusterStatus.RUNNING);
  const clusters = await get<{ clusters: { name: string; pools: { name: string; count: number }[] }[] }>(plane, "/_local/cmassh/clusters");
  expect(clusters.clusters.map((c) => [c.name, c.pools.map((p) => [p.name, p.count])])).toEqual([["legacy", [["workers", 2]]]]);
  const nodes = await get<{ nodes: { clusterName?: string; cluster?: string; state: string }[] }>(plane, "/_local/cyclecloud/nodes");
  expect(nodes.nodes.map((n) => n.state)).toEqual(["Ready", "Ready"]);
  const senlin = await get<{ clusters: { name: string; status: string; members: unknown[]; bindings: unknown[]; actions_in_flight: unknown[] }[] }>(plane, "/_local/senlin/clusters");
  expect(senlin.clusters.map((c) => [c.name, c.status, c.members.length, c.bindings.length, c.actions_in_flight.length])).toEqual([["web", "ACTIVE", 2, 1, 0]]);
  const jobs = await get<{ jobs: { name: string; pods: { state: string }[] }[] }>(plane, "/_local/peloton/jobs");
  expect(jobs.jobs.map((j) => [j.name, j.pods.map((p) => p.state)])).toEqual([["api", ["RUNNING", "RUNNING"]]]);
  const vclusters = await get<{ vclusters: { name: string; phase: string }[] }>(plane, "/_local/vcluster/vclusters");
  expect(vclusters.vclusters.map((v) => [v.name, v.phase])).toEqual([["dev", "RUNNING"]]);
  const snapshots = await get<{ snapshots: { name: string; status: string }[] }>(plane, "/_local/vcluster/snapshots");
  expect(snapshots.snapshots.map((s) => [s.name, s.status])).toEqual([["before-upgrade", "READY"]]);
}

describe("--seed", () => {
  it("starts with every platform's seeded objects settled, and an empty audit log", async () => {
    t = await startTestPlane({ seedFile: seedFile(WORLD) });
    await expectWorld(t);
    const audit = await get<{ entries: { operation: string }[] }>(t, "/_local/audit");
    expect(audit.entries.map((e) => e.operation).filter((op) => !op.startsWith("Get"))).toEqual([]);
  });

  it("takes JSON too", async () => {
    t = await startTestPlane({ seedFile: seedFile(JSON.stringify({ cmassh: { clusters: [{ name: "from-json" }] } }), "seed.json") });
    expect((await t.cmassh.getCluster({ name: "from-json" })).cluster!.status).toBe(ClusterStatus.RUNNING);
  });

  it("does not create the objects twice when the plane starts again on the same data", async () => {
    const dataDir = makeDataDir();
    const file = seedFile(WORLD);
    t = await startTestPlane({ seedFile: file, dataDir });
    await t.close();
    t = await startTestPlane({ seedFile: file, dataDir, clock: t.clock });
    await expectWorld(t);
  });

  it("puts the seeded objects back after a reset", async () => {
    t = await startTestPlane({ seedFile: seedFile(WORLD) });
    await t.cmassh.deleteCluster({ name: "legacy" });
    expect((await t.http("POST", "/_local/reset")).status).toBe(200);
    await expectWorld(t);
  });

  it.each([
    ["an unknown platform", "openstack: {}\n", 'field "openstack": not a platform that takes seeds; allowed: cmassh, cyclecloud, peloton, senlin, vcluster'],
    ["a missing required field", "cmassh:\n  clusters:\n    - kubernetesVersion: 1.31.6\n", 'field "cmassh.clusters[0].name"'],
    ["a wrong type", "peloton:\n  jobs:\n    - { name: a, respool: /x, instanceCount: two }\n", 'field "peloton.jobs[0].instanceCount"'],
    ["an unknown field", "vcluster:\n  vclusters:\n    - { name: a, colour: red }\n", "colour"],
    ["bad YAML", "cmassh: [\n", "not YAML or JSON at line"],
    ["not a mapping", "- 1\n", "expected a mapping of platform names"],
  ])("refuses a seed file with %s before anything starts, naming the file and the field", async (_label, text, message) => {
    const file = seedFile(text);
    const started = startTestPlane({ seedFile: file });
    await expect(started).rejects.toThrow(`invalid seed file "${file}"`);
    await expect(started).rejects.toThrow(message);
  });

  it("refuses a seed whose object the platform refuses, naming where it is", async () => {
    const file = seedFile("senlin:\n  clusters:\n    - { name: web, profile: missing }\n");
    await expect(startTestPlane({ seedFile: file })).rejects.toThrow(/invalid seed file ".*": senlin\.clusters\[0\] \(web\): the plane refused it: HTTP 400: .*The specified profile 'missing' could not be found/);
  });

  it("refuses a file that does not exist, naming it", async () => {
    await expect(startTestPlane({ seedFile: "/nonexistent/seed.yaml" })).rejects.toThrow('invalid seed file "/nonexistent/seed.yaml": ENOENT');
  });
});

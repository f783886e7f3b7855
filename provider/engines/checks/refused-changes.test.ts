import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformWrites } from "../testing";
import { type CheckSurfaces, ENGINES, type EngineName, headingOf, type Made, pathIn, startCheckSurfaces } from "./testing";

// Changes refused past the check of a new object's inputs, through the three engines' own calls
// in this process against the local control plane: a check against an existing object's state (a
// Kubernetes version downgrade, refused before any platform call), and creates and updates the
// platform itself refuses (a version it does not offer, a nodearray or cluster it does not have, a
// profile that does not exist), whose errors must carry the platform's answer and leave nothing
// behind. Bad inputs of new objects: bad-inputs.test.ts.

type Props = Record<string, unknown>;

const CLUSTER = { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } };

let s: CheckSurfaces;
/** A cma-ssh cluster at 1.30.10 made through each engine, as that engine keeps it. */
const clusters = {} as Record<EngineName, Made>;
beforeAll(async () => {
  s = await startCheckSurfaces();
  // Each create waits for the cluster to settle as RUNNING (a few seconds): the three at once.
  const made = await Promise.all(ENGINES.map((engine) => s.create(engine, "cmassh:Cluster", `existing-${engine}`, CLUSTER)));
  for (const [i, engine] of ENGINES.entries()) clusters[engine] = made[i];
});
afterAll(async () => {
  await s?.close();
});

const admin = async <T>(path: string): Promise<T> => (await s.plane.t.http("GET", path)).body as T;

describe("an existing cma-ssh cluster at 1.30.10", () => {
  it.for(ENGINES)("refuses a downgrade to 1.29.14 in the check, naming the field, with no platform call (%s)", async (engine) => {
    const since = await s.seq();
    const shown = await s.check(engine, "cmassh:Cluster", `existing-${engine}`, { ...CLUSTER, kubernetesVersion: "1.29.14" }, clusters[engine]);
    expect(shown).toEqual([
      {
        ...headingOf("cmassh:Cluster", "kubernetesVersion", engine),
        text: `${pathIn(engine, "kubernetesVersion")} cannot go down from 1.30.10 to 1.29.14: cma-ssh only upgrades; choose 1.30.10 or a newer version, or replace the cluster`,
      },
    ]);
    expect(await s.callsSince(since)).toEqual([]);
  });

  it.for(ENGINES)("fails an upgrade to a version the platform does not offer, listing the offered ones, keeping 1.30.10 (%s)", async (engine) => {
    const since = await s.seq();
    const refused = await s.failedUpdate(engine, "cmassh:Cluster", `existing-${engine}`, clusters[engine], { ...CLUSTER, kubernetesVersion: "1.40.0" });
    expect(refused.message).toContain("kubernetesVersion 1.40.0 is not offered by the platform; offered: 1.30.10, 1.31.6, 1.32.3, 1.33.1");
    // The engine keeps the state it had (undefined), or records the one the error carries.
    const state = (refused.kept === undefined ? clusters[engine].outputs : refused.kept) as Props | null;
    expect(state?.[pathIn(engine, "kubernetesVersion")]).toBe("1.30.10");
    expect(await platformWrites(s.plane.t, "cmassh", since)).toEqual([]);
  });
});

describe("a create the platform refuses fails with its answer and leaves nothing", () => {
  it.for(ENGINES)("a CycleCloud nodearray that does not exist: the server's answer and the nodearrays there are (%s)", async (engine) => {
    const since = await s.seq();
    const refused = await s.failedCreate(engine, "cyclecloud:NodePool", `cpu-${engine}`, { clusterName: "demo", nodearray: "cpu", count: 1 });
    expect(refused.message).toContain('GetClusterStatus cluster "demo": UNKNOWN_NODEARRAY: cluster "demo" has no nodearray "cpu"; its nodearrays: execute, gpu');
    expect(refused.kept).toBeNull();
    expect(await platformWrites(s.plane.t, "cyclecloud", since)).toEqual([]);
    expect((await admin<{ nodes: unknown[] }>("/_local/cyclecloud/nodes")).nodes).toEqual([]);
  });

  it.for(ENGINES)("a CycleCloud cluster that does not exist: the server's answer (%s)", async (engine) => {
    const since = await s.seq();
    const refused = await s.failedCreate(engine, "cyclecloud:NodePool", `nowhere-${engine}`, { clusterName: "nowhere", nodearray: "execute", count: 1 });
    expect(refused.message).toContain('GetClusterStatus cluster "nowhere": HTTP 404: cluster "nowhere" not found');
    expect(refused.kept).toBeNull();
    expect(await platformWrites(s.plane.t, "cyclecloud", since)).toEqual([]);
  });

  it.for(ENGINES)("a Senlin profile that does not exist: Senlin's own message, and no cluster (%s)", async (engine) => {
    const refused = await s.failedCreate(engine, "senlin:Cluster", "main", { profile: "no-such-profile" });
    // Pulumi derives the name from the resource's (`main-` and a hash); an HCL block names it.
    expect(refused.message).toMatch(/CreateCluster cluster "main(-[0-9a-f]{7})?": HTTP 400: The specified profile 'no-such-profile' could not be found\./);
    expect(refused.kept).toBeNull();
    expect((await admin<{ clusters: unknown[] }>("/_local/senlin/clusters")).clusters).toEqual([]);
  });
});

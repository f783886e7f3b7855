import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../../emulator/clock";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../../emulator/testing";
import type { ConfigReader } from "../../core/config";
import { testHandler, testLookup } from "../testing";
import { pelotonClient } from "./common";
import { pelotonResourcePool } from "./resource-pool/kind";
import { pelotonStatelessJob } from "./stateless-job/kind";

const identity = (resourceName: string, owner: string) => ({ __provider: "p", owner, resourceName });
const MISSING = "00000000-0000-4000-8000-000000000000";

let t: TestPlane;
let config: ConfigReader;
let respoolId: string;
let jobId: string;
beforeAll(async () => {
  t = await startTestPlane({ clock: systemClock as never, timeScale: 0.05 });
  config = { get: (key) => (key === "clusterform:endpoint" ? t.plane.url : undefined) };
  const pools = testHandler(pelotonResourcePool);
  const jobs = testHandler(pelotonStatelessJob);
  await pools.configure(config);
  await jobs.configure(config);
  const pool = await pools.check({}, { ...identity("web-pool", "0123456789abcdef"), name: "web-pool", resources: [{ kind: "cpu", reservation: 4, limit: 16 }], owningTeam: "web" });
  respoolId = (await pools.create(pool.inputs)).id;
  const job = { name: "web", respoolId, instanceCount: 1, labels: { team: "web" }, jobOwner: "alice", defaultSpec: { containers: [{ name: "web", image: "web:1", resources: { cpu: 0.25, memoryMb: 32 } }] } };
  jobId = (await jobs.create((await jobs.check({}, { ...identity("web", "1111111111111111"), ...job })).inputs)).id;
  const twin = { ...job, labels: { team: "api" } };
  for (const owner of ["2222222222222222", "3333333333333333"]) {
    await jobs.create((await jobs.check({}, { ...identity("twin", owner), ...twin, name: "twin" })).inputs);
  }
});
afterAll(async () => {
  (await pelotonClient(config)).close();
  await t.close();
  removeDataDirs();
});

describe("peloton:ResourcePool lookups", () => {
  const lookups = () => testLookup(pelotonResourcePool, t, config);

  it("getResourcePool reads a pool by id with one call, or by path with two, to the same result", async () => {
    const byId = await lookups().run("getResourcePool", { id: respoolId });
    expect(byId.calls).toEqual(["peloton:GetResourcePool"]);
    expect(byId.result).toMatchObject({ id: respoolId, respoolId, name: "web-pool", path: "/web-pool", parentId: "root", owningTeam: "web" });
    const byPath = await lookups().run("getResourcePool", { path: "/web-pool" });
    expect(byPath.calls).toEqual(["peloton:LookupResourcePoolID", "peloton:GetResourcePool"]);
    expect(byPath.result).toEqual(byId.result);
  });

  it("refuses both an id and a path, or neither, before any call", async () => {
    expect(await lookups().refused("getResourcePool", { id: respoolId, path: "/web-pool" })).toEqual([{ property: "id", reason: "give exactly one of `id` or `path`, got 2" }]);
    expect(await lookups().refused("getResourcePool", {})).toEqual([{ property: "id", reason: "give exactly one of `id` or `path`, got 0" }]);
  });

  it("fails naming the kind, the key and the endpoint when no pool has the id or the path", async () => {
    expect(await lookups().fails("getResourcePool", { id: MISSING })).toBe(
      `looking up peloton:ResourcePool id "${MISSING}": NOT_FOUND: no such object at the peloton endpoint ${t.plane.url}`,
    );
    expect(await lookups().fails("getResourcePool", { path: "/nosuch" })).toBe(
      `looking up peloton:ResourcePool path "/nosuch": NOT_FOUND: no such object at the peloton endpoint ${t.plane.url}`,
    );
  });

  it("getResourcePools lists every pool, the root included, with one call", async () => {
    const { result, calls } = await lookups().run("getResourcePools");
    expect(calls).toEqual(["peloton:QueryResourcePools"]);
    const pools = result.resourcePools as Record<string, unknown>[];
    expect(pools.find((p) => p.id === respoolId)).toMatchObject({ name: "web-pool", path: "/web-pool", respoolId });
    expect(pools.some((p) => p.path === "/")).toBe(true);
  });
});

describe("peloton:StatelessJob lookups", () => {
  const lookups = () => testLookup(pelotonStatelessJob, t, config);

  it("getStatelessJob reads a job by id with one call, or by name with two, to the same result", async () => {
    const byId = await lookups().run("getStatelessJob", { id: jobId });
    expect(byId.calls).toEqual(["peloton:GetJob"]);
    expect(byId.result).toMatchObject({ id: jobId, jobId, name: "web", respoolId, instanceCount: 1, labels: { team: "web" }, jobOwner: "alice" });
    const byName = await lookups().run("getStatelessJob", { name: "web" });
    expect(byName.calls).toEqual(["peloton:GetJobIDFromJobName", "peloton:GetJob"]);
    expect(byName.result).toEqual(byId.result);
  });

  it("fails for a name no job has, and for a name two jobs have, listing their ids", async () => {
    expect(await lookups().fails("getStatelessJob", { name: "nosuch" })).toBe(
      `looking up peloton:StatelessJob name "nosuch": NOT_FOUND: no such object at the peloton endpoint ${t.plane.url}`,
    );
    expect(await lookups().fails("getStatelessJob", { name: "twin" })).toMatch(/AMBIGUOUS: 2 jobs have this name \(.+, .+\): look the job up by `id`/);
  });

  it("getStatelessJobs filters with Peloton's query in one call; no match is an empty list", async () => {
    const { result, calls } = await lookups().run("getStatelessJobs", { labels: { team: "api" } });
    expect(calls).toEqual(["peloton:QueryJobs"]);
    expect((result.statelessJobs as Record<string, unknown>[]).map((j) => [j.name, j.labels, j.respoolId])).toEqual([
      ["twin", { team: "api" }, respoolId],
      ["twin", { team: "api" }, respoolId],
    ]);
    expect((await lookups().run("getStatelessJobs", { labels: { team: "none" } })).result).toEqual({ statelessJobs: [] });
    const all = (await lookups().run("getStatelessJobs")).result.statelessJobs as Record<string, unknown>[];
    expect(all.map((j) => j.name).sort()).toEqual(["twin", "twin", "web"]);
  });
});

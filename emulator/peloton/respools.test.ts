import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { jobSpec, outcomeOf, type PelotonTestClients, pelotonClients, poolSpec } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
let c: PelotonTestClients;
beforeEach(async () => {
  t = await startTestPlane();
  c = pelotonClients(t.plane.url);
});
afterEach(async () => {
  await t.close();
});

async function create(spec: ReturnType<typeof poolSpec>): Promise<string> {
  return (await c.respools.createResourcePool({ spec })).respoolId!.value;
}

describe("resource pools", () => {
  it("builds a tree under root and resolves paths both ways", async () => {
    const infra = await create(poolSpec("infrastructure", 32, 65536));
    const compute = await create(poolSpec("compute", 16, 32768, infra));
    await create(poolSpec("marketplace", 8, 8192));
    expect((await c.respools.lookupResourcePoolID({ path: { value: "/infrastructure/compute" } })).respoolId?.value).toBe(compute);
    const got = await c.respools.getResourcePool({ respoolId: { value: infra }, includeChildPools: true });
    expect(got.respool).toMatchObject({ path: { value: "/infrastructure" }, parent: { value: "root" }, children: [{ value: compute }] });
    expect(got.childRespools.map((p) => p.path?.value)).toEqual(["/infrastructure/compute"]);
    const all = await c.respools.queryResourcePools({});
    expect(all.respools.map((p) => p.path?.value)).toEqual(["/", "/infrastructure", "/infrastructure/compute", "/marketplace"]);
  });

  it.each([
    ["a relative path", "infrastructure", "InvalidArgument"],
    ["a path that names no pool", "/nowhere", "NotFound"],
  ])("answers LookupResourcePoolID with %s by %s", async (_what, path, code) => {
    expect(await outcomeOf(c.respools.lookupResourcePoolID({ path: { value: path } }))).toMatchObject({ code });
  });

  it.each([
    ["a name with a slash", { ...poolSpec("a/b", 1, 1) }, "InvalidArgument", 'invalid resource pool name "a/b"'],
    ["an unknown resource kind", { name: "x", resources: [{ kind: "tpu", limit: 1 }] }, "InvalidArgument", 'invalid resource kind "tpu"'],
    ["a limit below the reservation", { name: "x", resources: [{ kind: "cpu", reservation: 4, limit: 2 }] }, "InvalidArgument", "limit 2 is below reservation 4"],
    ["an unknown parent", { ...poolSpec("x", 1, 1, "2c4b8a4e-0000-4000-8000-000000000000") }, "InvalidArgument", "not found"],
  ])("rejects %s", async (_what, spec, code, message) => {
    const outcome = await outcomeOf(c.respools.createResourcePool({ spec }));
    expect(outcome).toMatchObject({ code });
    expect(outcome === "OK" ? "" : outcome.message).toContain(message);
  });

  it("refuses a child whose limit exceeds its parent's, and a sibling name twice", async () => {
    const infra = await create(poolSpec("infrastructure", 8, 8192));
    expect(await outcomeOf(c.respools.createResourcePool({ spec: poolSpec("big", 16, 1024, infra) }))).toMatchObject({
      code: "InvalidArgument",
      message: 'resource "cpu" of pool "big": limit 16 exceeds parent "infrastructure" limit 8',
    });
    await create(poolSpec("compute", 4, 1024, infra));
    expect(await outcomeOf(c.respools.createResourcePool({ spec: poolSpec("compute", 4, 1024, infra) }))).toMatchObject({
      code: "AlreadyExists",
    });
  });

  it("deletes only a leaf without jobs", async () => {
    const infra = await create(poolSpec("infrastructure", 8, 8192));
    const compute = await create(poolSpec("compute", 4, 4096, infra));
    await c.jobs.createJob({ spec: jobSpec("web", compute, 1) });
    expect(await outcomeOf(c.respools.deleteResourcePool({ respoolId: { value: infra } }))).toMatchObject({ code: "InvalidArgument" });
    expect(await outcomeOf(c.respools.deleteResourcePool({ respoolId: { value: compute } }))).toMatchObject({ code: "FailedPrecondition" });
    expect(await outcomeOf(c.respools.deleteResourcePool({ respoolId: { value: "root" } }))).toMatchObject({ code: "InvalidArgument" });
    expect(await outcomeOf(c.jobs.createJob({ spec: jobSpec("web", infra, 1) }))).toMatchObject({ code: "InvalidArgument" });
  });

  it("reports each pool's allocation from the pods holding resources", async () => {
    const infra = await create(poolSpec("infrastructure", 8, 8192));
    const compute = await create(poolSpec("compute", 4, 4096, infra));
    await c.jobs.createJob({ spec: jobSpec("web", compute, 3) });
    t.clock.advance(500);
    const usage = async (id: string) =>
      (await c.respools.getResourcePool({ respoolId: { value: id } })).respool?.usages.map((u) => [u.kind, u.allocation]);
    expect(await usage(compute)).toEqual([
      ["cpu", 3],
      ["memory", 384],
    ]);
    expect(await usage(infra)).toEqual([
      ["cpu", 3],
      ["memory", 384],
    ]);
  });

  it("updates a pool's limits, keeping its place in the tree", async () => {
    const pool = await create(poolSpec("compute", 4, 4096));
    await c.respools.updateResourcePool({ respoolId: { value: pool }, spec: poolSpec("compute", 6, 4096) });
    const got = (await c.respools.getResourcePool({ respoolId: { value: pool } })).respool!;
    expect(got.spec?.resources.map((r) => [r.kind, r.limit])).toEqual([
      ["cpu", 6],
      ["memory", 4096],
    ]);
    expect(got.spec?.revision?.version).toBe(2n);
    expect(await outcomeOf(c.respools.updateResourcePool({ respoolId: { value: "3d1f2e0c-0000-4000-8000-000000000000" }, spec: poolSpec("x", 1, 1) }))).toMatchObject({
      code: "NotFound",
    });
  });
});

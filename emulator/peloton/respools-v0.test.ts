import { createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ResourceManager } from "../../proto/gen/peloton/api/v0/respool/respool_pb";
import { removeDataDirs, startTestPlane, type TestPlane } from "../testing";
import { jobSpec, pelotonClients, poolSpec, YARPC_HEADERS } from "./testing";

afterAll(removeDataDirs);

let t: TestPlane;
afterEach(async () => {
  await t?.close();
});

/** A v0 client as Peloton's CLI addresses the resource manager. */
function v0Client(url: string) {
  const headers: Interceptor = (next) => (req) => {
    for (const [key, value] of Object.entries({ ...YARPC_HEADERS, "rpc-service": "peloton-resmgr" })) req.header.set(key, value);
    return next(req);
  };
  return createClient(ResourceManager, createGrpcTransport({ baseUrl: url, interceptors: [headers], defaultTimeoutMs: 10_000 }));
}

const config = (name: string, parent = "root") => ({
  name,
  parent: { value: parent },
  resources: [{ kind: "cpu", reservation: 2, limit: 4, share: 1 }],
  policy: 1,
});

describe("Peloton v0 ResourceManager (peloton.api.respool.ResourceManager)", () => {
  it("shares the pool tree with v1alpha both ways", async () => {
    t = await startTestPlane({ timeScale: 0 });
    const v0 = v0Client(t.plane.url);
    const v1 = pelotonClients(t.plane.url).respools;
    const made = await v0.createResourcePool({ config: config("batch") });
    expect(made.error).toBeUndefined();
    const id = made.result!.value;
    expect((await v1.lookupResourcePoolID({ path: { value: "/batch" } })).respoolId?.value).toBe(id);
    const v1Made = await v1.createResourcePool({ spec: poolSpec("web", 2, 1024, id) });
    const found = await v0.lookupResourcePoolID({ path: { value: "/batch/web" } });
    expect(found).toMatchObject({ id: { value: v1Made.respoolId!.value } });
    const got = await v0.getResourcePool({ id: { value: id }, includeChildPools: true });
    expect(got.poolinfo).toMatchObject({ id: { value: id }, path: { value: "/batch" }, config: { name: "batch", policy: 1, changeLog: { version: 1n } } });
    expect(got.childPools.map((p) => p.path?.value)).toEqual(["/batch/web"]);
    expect((await v0.query({})).resourcePools.map((p) => p.path?.value)).toEqual(["/", "/batch", "/batch/web"]);
    await v0.updateResourcePool({ id: { value: id }, config: { ...config("batch"), description: "v0" } });
    expect((await v1.getResourcePool({ respoolId: { value: id } })).respool?.spec?.description).toBe("v0");
  });

  it("reports failures in the response's error field, as upstream's v0 handler does", async () => {
    t = await startTestPlane({ timeScale: 0 });
    const v0 = v0Client(t.plane.url);
    const parent = (await v0.createResourcePool({ config: config("a") })).result!.value;
    await v0.createResourcePool({ config: config("b", parent) });
    expect((await v0.createResourcePool({ config: config("a") })).error?.alreadyExists?.message).toContain('"a"');
    expect((await v0.createResourcePool({ config: { ...config("bad"), resources: [{ kind: "cpu", reservation: 5, limit: 1 }] } })).error?.invalidResourcePoolConfig?.message).toContain(
      "limit 1 is below reservation 5",
    );
    expect((await v0.lookupResourcePoolID({ path: { value: "/nope" } })).error?.notFound?.path?.value).toBe("/nope");
    expect((await v0.getResourcePool({ id: { value: "ghost" } })).error?.notFound?.id?.value).toBe("ghost");
    expect((await v0.deleteResourcePool({ path: { value: "/a" } })).error?.isNotLeaf?.message).toContain("not a leaf");
    expect((await v0.deleteResourcePool({ path: { value: "/" } })).error?.notDeleted).toBeDefined();
    expect((await v0.deleteResourcePool({ path: { value: "/a/b" } })).error).toBeUndefined();
    expect((await v0.lookupResourcePoolID({ path: { value: "/a/b" } })).error?.notFound).toBeDefined();
  });

  it("serves ListJobWorkflows beside ListJobUpdates, newest first, honouring updates_limit", async () => {
    t = await startTestPlane({ timeScale: 0 });
    const c = pelotonClients(t.plane.url);
    const pool = (await c.respools.createResourcePool({ spec: poolSpec("p", 16, 4096) })).respoolId!.value;
    const { jobId, version } = await c.jobs.createJob({ spec: jobSpec("web", pool, 1) });
    await c.jobs.replaceJob({ jobId, version, spec: jobSpec("web", pool, 2) });
    const updates = (await c.jobs.listJobUpdates({ jobId })).workflowInfos;
    const workflows = (await c.jobs.listJobWorkflows({ jobId })).workflowInfos;
    expect(workflows).toEqual(updates);
    expect(workflows.length).toBeGreaterThan(1);
    expect((await c.jobs.listJobWorkflows({ jobId, updatesLimit: 1 })).workflowInfos).toEqual(updates.slice(0, 1));
  });
});

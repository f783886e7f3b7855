import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Phase, type WatchVClusterResponse, WatchEventType } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { removeDataDirs } from "../testing";
import { startVclusterPlane, type VclusterTestPlane } from "./testing";
import { RESOURCE_VERSION_ANNOTATION } from "./view";

afterAll(removeDataDirs);

let t: VclusterTestPlane;
let abort: AbortController;
afterEach(async () => {
  abort?.abort();
  await t?.close();
});

type Watch = AsyncIterator<WatchVClusterResponse>;

/** The fields of a WatchVClusterRequest. */
interface WatchRequest {
  name?: string;
  namespace?: string;
  labelSelector?: string;
  resourceVersion?: string;
}

function watch(request: WatchRequest = {}): Watch {
  abort = new AbortController();
  return t.vc.watchVCluster(request, { signal: abort.signal })[Symbol.asyncIterator]();
}

/** The next event as [type, namespace/name, phase]. */
async function next(w: Watch): Promise<[string, string, string]> {
  const { value } = await w.next();
  const v = value!.vcluster!;
  return [WatchEventType[value!.type], `${v.namespace}/${v.name}`, Phase[v.status!.phase]];
}

describe("WatchVCluster", () => {
  it("starts with ADDED for each vcluster, then pushes changes as they happen, time-driven ones included", async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ name: "a", namespace: "ns" });
    const w = watch();
    expect(await next(w)).toEqual(["ADDED", "ns/a", "CREATING"]);
    await t.vc.createVCluster({ name: "b", namespace: "ns" });
    expect(await next(w)).toEqual(["ADDED", "ns/b", "CREATING"]);
    // No call follows the clock moving: the module's own timer must notice and push.
    t.clock.advance(2000);
    expect([await next(w), await next(w)]).toEqual([
      ["MODIFIED", "ns/a", "RUNNING"],
      ["MODIFIED", "ns/b", "RUNNING"],
    ]);
    await t.vc.deleteVCluster({ name: "a", namespace: "ns" });
    expect(await next(w)).toEqual(["MODIFIED", "ns/a", "DELETING"]);
    t.clock.advance(1000);
    expect(await next(w)).toEqual(["DELETED", "ns/a", "DELETING"]);
  });

  it.each<[WatchRequest, string[]]>([
    [{ namespace: "ns1" }, ["ns1/a", "ns1/b"]],
    [{ namespace: "ns1", name: "b" }, ["ns1/b"]],
    [{ labelSelector: "env=prod" }, ["ns1/a", "ns2/a"]],
  ])("sends only the vclusters %j selects", async (request, expected) => {
    t = await startVclusterPlane();
    const w = watch(request);
    await t.vc.createVCluster({ name: "a", namespace: "ns1", labels: { env: "prod" } });
    await t.vc.createVCluster({ name: "b", namespace: "ns1" });
    await t.vc.createVCluster({ name: "a", namespace: "ns2", labels: { env: "prod" } });
    const seen: string[] = [];
    for (let i = 0; i < expected.length; i++) seen.push((await next(w))[1]);
    expect(seen).toEqual(expected);
    // A change every filter selects proves nothing else was queued in between.
    await t.vc.updateVCluster({ name: "b", namespace: "ns1", labels: { env: "prod" } });
    expect(await next(w)).toEqual(["MODIFIED", "ns1/b", "CREATING"]);
  });

  it("resumes after a resource version with exactly the changes made since", async () => {
    t = await startVclusterPlane({ timeScale: 0 });
    const created = await t.vc.createVCluster({ name: "a", namespace: "ns" });
    const rv = created.vcluster!.annotations[RESOURCE_VERSION_ANNOTATION];
    expect(rv).toMatch(/^\d+$/);
    await t.vc.scaleVCluster({ name: "a", namespace: "ns", replicas: 3 });
    await t.vc.createVCluster({ name: "b", namespace: "ns" });
    const w = watch({ resourceVersion: rv });
    expect([await next(w), await next(w), await next(w), await next(w)]).toEqual([
      ["MODIFIED", "ns/a", "RUNNING"],
      ["MODIFIED", "ns/a", "SCALING"],
      ["MODIFIED", "ns/a", "RUNNING"],
      ["ADDED", "ns/b", "CREATING"],
    ]);
  });

  it("carries the event's resource version in the vcluster's annotations", async () => {
    t = await startVclusterPlane();
    const w = watch();
    await t.vc.createVCluster({ name: "a", namespace: "ns" });
    const { value } = await w.next();
    const got = (await t.vc.getVCluster({ name: "a", namespace: "ns" })).vcluster!;
    expect(value!.vcluster!.annotations[RESOURCE_VERSION_ANNOTATION]).toBe(got.annotations[RESOURCE_VERSION_ANNOTATION]);
  });

  it("rejects a resource version that is not a number with INVALID_ARGUMENT", async () => {
    t = await startVclusterPlane();
    const error = await watch({ resourceVersion: "abc" }).next().catch((e: unknown) => ConnectError.from(e));
    expect((error as ConnectError).code).toBe(Code.InvalidArgument);
  });

  it("ends with UNAVAILABLE when a break-watch fault matches the next event", async () => {
    t = await startVclusterPlane();
    const w = watch({ namespace: "ns" });
    await t.http("POST", "/_local/faults", { api: "vcluster", action: "break-watch", message: "connection reset by peer" });
    await t.vc.createVCluster({ name: "a", namespace: "ns" });
    const error = await w.next().catch((e: unknown) => ConnectError.from(e));
    expect([(error as ConnectError).code, (error as ConnectError).rawMessage]).toEqual([Code.Unavailable, "connection reset by peer"]);
  });

  it("is audited once when it opens", async () => {
    t = await startVclusterPlane();
    const w = watch({ namespace: "ns", name: "a" });
    const first = w.next();
    // The watch and the create travel on separate streams: create only once the watch is open.
    await expect.poll(async () => JSON.stringify((await t.http("GET", "/_local/audit")).body)).toContain("WatchVCluster");
    await t.vc.createVCluster({ name: "a", namespace: "ns" });
    await first;
    const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: { operation: string; target: string }[] };
    expect(entries.map((e) => [e.operation, e.target])).toEqual([
      ["WatchVCluster", "ns/a"],
      ["CreateVCluster", "ns/a"],
    ]);
  });
  it("after a restart, resumes from a resource version and still pushes the transition that was in flight", async () => {
    t = await startVclusterPlane();
    const created = await t.vc.createVCluster({ name: "a", namespace: "ns" });
    const rv = created.vcluster!.annotations[RESOURCE_VERSION_ANNOTATION];
    await t.vc.updateVCluster({ name: "a", namespace: "ns", labels: { x: "y" } });
    await t.close();
    t = await startVclusterPlane({ dataDir: t.dataDir, clock: t.clock });
    const w = watch({ resourceVersion: rv });
    expect(await next(w)).toEqual(["MODIFIED", "ns/a", "CREATING"]);
    t.clock.advance(2000);
    expect(await next(w)).toEqual(["MODIFIED", "ns/a", "RUNNING"]);
  });
  it("sends DELETED for a vcluster whose labels stop matching the selector", async () => {
    t = await startVclusterPlane();
    await t.vc.createVCluster({ name: "a", namespace: "ns", labels: { env: "prod" } });
    const w = watch({ labelSelector: "env=prod" });
    expect(await next(w)).toEqual(["ADDED", "ns/a", "CREATING"]);
    await t.vc.updateVCluster({ name: "a", namespace: "ns", labels: { env: "dev" }, updateMask: { paths: ["labels"] } });
    expect(await next(w)).toEqual(["DELETED", "ns/a", "CREATING"]);
    await t.vc.updateVCluster({ name: "a", namespace: "ns", labels: { env: "prod" }, updateMask: { paths: ["labels"] } });
    expect(await next(w)).toEqual(["MODIFIED", "ns/a", "CREATING"]);
  });
});

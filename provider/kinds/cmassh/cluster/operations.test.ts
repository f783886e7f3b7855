import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CreateContext, FoundObject } from "../../../core/contract";
import { ClusterformError } from "../../../core/errors";
import { clusterOperations } from "./operations";
import type { ClusterInputs } from "./schema";

// CreateCluster against a fake cma-ssh whose create can make the cluster and then fail: a lost
// answer, or "already exists" because another resource made the same name first.

let exists = false;
let creates = 0;
let onCreate: () => void = () => {};
const fakeClient = {
  getCluster: async (name: string) => {
    if (!exists) throw new ClusterformError({ code: "NotFound", platformCode: "NOT_FOUND", operation: "GetCluster", platformMessage: "no such cluster" });
    return { name, status: creates > 0 ? "RUNNING" : "PROVISIONING", statusMessage: "" };
  },
  createCluster: async () => {
    creates++;
    exists = true;
    onCreate();
  },
};

vi.mock("../common", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../common")>()),
  cmasshClient: async () => fakeClient,
}));

const inputs: ClusterInputs & Record<string, unknown> = {
  owner: "0123456789abcdef",
  resourceName: "prod",
  name: "prod",
  autoNamed: false,
  kubernetesVersion: "1.31.6",
  controlPlane: { instanceType: "standard", count: 1 },
  timeouts: { create: "10m", update: "10m", delete: "10m" },
};

function context(confirmed: FoundObject[]): CreateContext {
  const report = { progress: async () => {}, warn: async () => {}, note: async () => {} };
  return { config: { get: () => undefined }, report, confirmAdoption: (_, found) => void confirmed.push(found), adopting: () => {}, adoptInUse: false };
}

/** Runs create while moving the fake timers, so backoff and the wait for RUNNING pass at once. */
async function create(ctx: CreateContext, named: Partial<ClusterInputs> = {}): Promise<unknown> {
  const done = clusterOperations.create(ctx, { ...inputs, ...named }).then(
    (r) => r,
    (e: unknown) => e,
  );
  await vi.advanceTimersByTimeAsync(10_000);
  return done;
}

const fail = (code: "Unavailable" | "Internal", platformMessage: string) => () => {
  throw new ClusterformError({ code, platformCode: code.toUpperCase(), operation: 'CreateCluster cluster "prod"', platformMessage });
};

describe("cmassh:Cluster create when CreateCluster fails after making the cluster", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    exists = false;
    creates = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("takes a cluster whose CreateCluster answer was lost as its own, sending CreateCluster once, even for a name the user chose", async () => {
    onCreate = fail("Unavailable", "connection reset");
    const confirmed: FoundObject[] = [];
    expect(await create(context(confirmed))).toMatchObject({ id: "prod", outs: { status: "RUNNING" } });
    expect([creates, confirmed]).toEqual([1, []]);
  });

  it("refuses a user-named cluster that CreateCluster answers \"already exists\" for: another resource made that name", async () => {
    onCreate = fail("Internal", "cluster prod already exists");
    const confirmed: FoundObject[] = [];
    const error = await create(context(confirmed));
    expect((error as Error).message).toMatch(/^CreateCluster cluster "prod": EXISTS: a cluster of that name already exists and this stack did not create it/);
    expect([creates, confirmed]).toEqual([1, []]);
  });

  it("puts a derived name that CreateCluster answers \"already exists\" for through the adoption check", async () => {
    onCreate = fail("Internal", "cluster prod already exists");
    const confirmed: FoundObject[] = [];
    expect(await create(context(confirmed), { autoNamed: true })).toMatchObject({ id: "prod" });
    expect([creates, confirmed]).toEqual([1, [{ identity: "prod", id: "prod" }]]);
  });
});

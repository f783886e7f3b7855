import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CreateContext, Reporter } from "../../../core/contract";
import { planUpdate } from "../../../core/plan/operation";
import { nodePoolOperations } from "./operations";
import { nodePoolPlanner } from "./plan";
import { type NodePoolInputs, nodePoolPolicies } from "./schema";

/** The cluster statuses GetCluster answers, one per call; the last one repeats. */
let statuses: string[] = [];
const fakeClient = {
  getCluster: async (name: string) => ({ name, status: statuses.length > 1 ? statuses.shift() : statuses[0], statusMessage: "" }),
  addNodePool: async () => {},
  scaleNodePool: async () => {},
  deleteNodePool: async () => {},
};

vi.mock("../common", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../common")>()),
  cmasshClient: async () => fakeClient,
}));

type Props = Record<string, unknown>;

const pool: NodePoolInputs & Props = {
  owner: "0123456789abcdef",
  resourceName: "general",
  name: "general-8b2e662",
  autoNamed: true,
  clusterName: "prod-abc",
  instanceType: "standard",
  count: 3,
  timeouts: { create: "10m", update: "10m", delete: "10m" },
};

function context(told: string[]): CreateContext {
  const report: Reporter = {
    progress: async (message) => {
      told.push(message);
    },
    warn: async () => {},
    note: async () => {},
  };
  return { config: { get: () => undefined }, report, confirmAdoption: () => {}, adopting: () => {}, adoptInUse: false };
}

const id = "prod-abc/general-8b2e662";
const scaled: NodePoolInputs & Props = { ...pool, count: 5 };

const runs: [string, string, (ctx: CreateContext) => Promise<unknown>][] = [
  ["create", "AddNodePool", (ctx) => nodePoolOperations.create(ctx, pool)],
  ["update", "ScaleNodePool to 5", (ctx) => nodePoolOperations.update(ctx, id, pool, scaled, planUpdate(nodePoolPolicies, nodePoolPlanner, pool, scaled, id))],
  ["delete", "DeleteNodePool", (ctx) => nodePoolOperations.delete(ctx, id, pool)],
];

describe("a cma-ssh pool waiting for its cluster", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(runs)("%s says it is the pool's %s that waits for the cluster, and ends saying the wait is over", async (method, step, run) => {
    // delete looks the cluster up once before waiting; the others start with the wait.
    statuses = method === "delete" ? ["RECONCILING", "RECONCILING", "RUNNING"] : ["RECONCILING", "RUNNING"];
    const told: string[] = [];
    const done = run(context(told));
    await vi.advanceTimersByTimeAsync(200);
    await done;
    expect(told).toEqual([
      `pool "general-8b2e662": ${step}: waiting for cluster "prod-abc" to be RUNNING: status RECONCILING (0ms, timeout 10m)`,
      `pool "general-8b2e662": ${step}: waited 200ms for cluster "prod-abc" to be RUNNING`,
    ]);
  });

  it("ends an update that sends nothing (only its timeouts change) at the first RUNNING, without the settling time a scale gets", async () => {
    statuses = ["RUNNING"];
    const retimed: NodePoolInputs & Props = { ...pool, timeouts: { create: "10m", update: "20m", delete: "10m" } };
    const plan = planUpdate(nodePoolPolicies, nodePoolPlanner, pool, retimed, id);
    expect(plan.operations).toEqual([]);
    let settled = false;
    const untouched = nodePoolOperations.update(context([]), id, pool, retimed, plan).then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    await untouched;
    expect(settled).toBe(true);
    // A scale with the cluster RUNNING throughout waits out the settling time (3 s) first.
    let scaledDone = false;
    const scale = nodePoolOperations.update(context([]), id, pool, scaled, planUpdate(nodePoolPolicies, nodePoolPlanner, pool, scaled, id)).then(() => {
      scaledDone = true;
    });
    await vi.advanceTimersByTimeAsync(2_500);
    expect(scaledDone).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    await scale;
    expect(scaledDone).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cycleCloud } from "../../emulator/cyclecloud/testing";
import { senlinSession } from "../../emulator/senlin/testing";
import { expectOperationsAudited, isPlannable } from "../../test/harness/planned";
import { loadKinds } from "../cli/plan/planners";
import type { KindType } from "../kinds";
import { DRIVERS } from "./field-tables/testing";
import { type AdapterPlane, type AuditEntry, auditEntries, auditSeq, type DrivenResource, ENGINE_NAMES, type EngineName, makeFixture, planeWithConfig, type Previewed, runningClock } from "./testing";

// A size the platform owns (`capacityOwner: "platform"`, core/capacity.ts) on the three engines,
// through each adapter's own protocol surface: a size Senlin's receiver webhook or CycleCloud's
// autoscaler moved plans nothing and writes nothing; new bounds keep the live size, or clamp it
// (named in the plan); handing the size back to the program is one resize. Every write is read
// from the local plane's audit.

type Props = Record<string, unknown>;

/** One engine's plane and resource, and the plane's writes of `api` since the last look. */
class Stack {
  private since = 0;
  constructor(
    readonly engine: EngineName,
    readonly plane: AdapterPlane,
    readonly r: DrivenResource,
    readonly api: string,
  ) {}

  async mark(): Promise<void> {
    this.since = await auditSeq(this.plane.t);
  }

  /** The plane's writes of the stack's platform since {@link mark}. */
  async writes(): Promise<AuditEntry[]> {
    return (await auditEntries(this.plane.t, this.api, this.since)).filter(isPlannable);
  }

  /** Previews `inputs`, applies them, and answers the preview and the writes the apply made; a preview after it has nothing to do. */
  async change(inputs: Props): Promise<{ previewed: Previewed; writes: AuditEntry[] }> {
    const previewed = await this.r.preview({ inputs });
    await this.mark();
    const applied = await this.r.apply({ inputs });
    expect(applied.op).toBe(previewed.op);
    const writes = await this.writes();
    expectOperationsAudited(previewed.operations, writes);
    // A clamp leaves OpenTofu's state at the planned (prior) size until a refresh reads the live one.
    await this.r.refresh();
    expect((await this.r.preview({ inputs })).op).toBe("same");
    return { previewed, writes };
  }

  /** OpenTofu's warnings of the last plan (none on the Pulumi engines, which show the plan's calls on the row). */
  get warnings(): string[] {
    return this.engine === "terraform" ? (this.r as unknown as { planWarnings: string[] }).planWarnings : [];
  }
}

/** One stack per engine, each on a plane of its own, for a resource of `type`. */
function stacks(type: KindType, api: string, prepare: (plane: AdapterPlane) => Promise<void>) {
  const all = {} as Record<EngineName, Stack>;
  beforeAll(async () => {
    await loadKinds();
    await Promise.all(
      ENGINE_NAMES.map(async (engine) => {
        const plane = await planeWithConfig({ timeScale: 0, clock: runningClock() });
        await prepare(plane);
        all[engine] = new Stack(engine, plane, await DRIVERS[engine].open(type, "capacity", `capacity-${api}-${engine}`, plane), api);
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(Object.values(all).map((s) => s.plane.close()));
  });
  return all;
}

const calls = (writes: AuditEntry[]) => writes.map((w) => `${w.operation} ${w.target}`);

interface ClusterView {
  id: string;
  desired_capacity: number;
  min_size: number;
  max_size: number;
  nodes: string[];
}

async function clusterOf(plane: AdapterPlane, id: unknown): Promise<ClusterView> {
  const { clusters } = (await plane.t.http("GET", "/_local/senlin/clusters")).body as { clusters: ClusterView[] };
  const found = clusters.find((c) => c.id === id);
  if (!found) throw new Error(`no cluster ${String(id)} on the plane`);
  return found;
}

const size = (c: ClusterView) => ({ desired: c.desired_capacity, min: c.min_size, max: c.max_size, nodes: c.nodes.length });

describe.concurrent("senlin:Cluster with capacityOwner platform", () => {
  const all = stacks("senlin:Cluster", "senlin", async (plane) => {
    const spec = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } };
    await makeFixture(plane.config, "senlin:Profile", { resourceName: "web-profile", name: "web-profile", spec });
  });
  const base = { name: "grow", profile: "web-profile", minSize: 0, maxSize: 10, desiredCapacity: 2, capacityOwner: "platform" };

  it.for(ENGINE_NAMES)("%s: keeps the size a receiver's webhook moved, keeps or clamps it to new bounds, and resizes once when handed back", async (engine) => {
    const s = all[engine];
    expect((await s.r.apply({ inputs: base })).op).toBe("create");
    const id = s.r.outputs.id;
    expect(size(await clusterOf(s.plane, id))).toEqual({ desired: 2, min: 0, max: 10, nodes: 2 });

    // Senlin's own scaling: a webhook receiver's trigger scales the cluster out by 3, outside the program.
    const session = await senlinSession(s.plane.t);
    const receiver = await session.call("POST", "/v1/receivers", { receiver: { name: "grow", type: "webhook", cluster_id: id, action: "CLUSTER_SCALE_OUT", params: { count: 3 } } });
    expect(receiver.status).toBe(201);
    const url = new URL((receiver.body as { receiver: { channel: { alarm_url: string } } }).receiver.channel.alarm_url);
    expect((await session.call("POST", `${url.pathname}${url.search}`, undefined, { token: null })).status).toBe(202);
    expect(size(await clusterOf(s.plane, id))).toEqual({ desired: 5, min: 0, max: 10, nodes: 5 });

    // The refresh records the live size; the program's 2 plans nothing and the apply writes nothing.
    await s.r.refresh();
    expect(s.r.outputs.desiredCapacity).toBe(5);
    const moved = await s.change(base);
    expect([moved.previewed.op, moved.previewed.operations, calls(moved.writes), s.warnings]).toEqual(["same", [], [], []]);

    // New bounds that hold the live size: the bounds alone, strict false; the size stays 5.
    const inside = await s.change({ ...base, minSize: 1, maxSize: 8 });
    expect(inside.previewed.operations.map((o) => [o.call, o.args, o.summary])).toEqual([
      ["ResizeCluster", { minSize: 1, maxSize: 8, strict: false }, "sets the bounds to 1..8; the size stays Senlin's (5 node(s) when last read)"],
    ]);
    expect(calls(inside.writes)).toEqual([`ResizeCluster ${id}`]);
    expect(size(await clusterOf(s.plane, id))).toEqual({ desired: 5, min: 1, max: 8, nodes: 5 });

    // New bounds below the live size: the plan names the clamp (and OpenTofu warns of it); Senlin truncates to 3.
    const preview = await s.r.preview({ inputs: { ...base, minSize: 1, maxSize: 3 } });
    expect(s.warnings).toEqual(engine === "terraform" ? ["clusterform: clusterform_senlin_cluster clamps desired_capacity from 5 to 3"] : []);
    expect(preview.operations.map((o) => o.summary)).toEqual(["sets the bounds to 1..3 and clamps the size from 5 to 3 node(s) (outside the new bounds; Senlin truncates it, strict false)"]);
    const outside = await s.change({ ...base, minSize: 1, maxSize: 3 });
    expect(calls(outside.writes)).toEqual([`ResizeCluster ${id}`]);
    expect(size(await clusterOf(s.plane, id))).toEqual({ desired: 3, min: 1, max: 3, nodes: 3 });
    expect(s.r.outputs.desiredCapacity).toBe(3);

    // Handed back to the program: one EXACT_CAPACITY resize to its 2.
    const back = await s.change({ ...base, minSize: 1, maxSize: 3, capacityOwner: "program" });
    expect(back.previewed.operations.map((o) => [o.call, o.args])).toEqual([["ResizeCluster", { adjustmentType: "EXACT_CAPACITY", number: 2, minSize: 1, maxSize: 3 }]]);
    expect(calls(back.writes)).toEqual([`ResizeCluster ${id}`]);
    expect(size(await clusterOf(s.plane, id))).toEqual({ desired: 2, min: 1, max: 3, nodes: 2 });

    await s.r.destroy();
  });
});

describe.concurrent("cyclecloud:NodePool with capacityOwner platform", () => {
  const all = stacks("cyclecloud:NodePool", "cyclecloud", async () => undefined);
  const base = { clusterName: "demo", nodearray: "execute", count: 3, capacityOwner: "platform" };
  const poolNodes = async (plane: AdapterPlane, ids: unknown): Promise<string[]> =>
    [...(await cycleCloud(plane.t).nodes()).values()].filter((n) => (ids as string[]).includes(n.id) && n.state !== "Terminating").map((n) => n.name);

  it.for(ENGINE_NAMES)("%s: keeps the count CycleCloud's autoscaler moved, and resizes once when handed back", async (engine) => {
    const s = all[engine];
    expect((await s.r.apply({ inputs: base })).op).toBe("create");
    const names = s.r.outputs.nodeNames as string[];
    expect(names).toHaveLength(3);

    // The autoscaler removes an idle node through CycleCloud's API (nodes/remove), as scalelib does.
    const removed = await cycleCloud(s.plane.t).post("/clusters/demo/nodes/remove", { names: [names[2]] });
    expect(removed.status).toBe(202);
    await s.r.refresh();
    expect([s.r.outputs.count, s.r.outputs.nodeNames]).toEqual([2, names.slice(0, 2)]);

    // The live 2 stands: the program's 3, or another count, plans nothing and writes nothing.
    for (const count of [3, 5]) {
      const moved = await s.change({ ...base, count });
      expect([moved.previewed.op, calls(moved.writes)]).toEqual(["same", []]);
    }
    expect(await poolNodes(s.plane, s.r.outputs.nodeIds)).toEqual(names.slice(0, 2));

    // Handed back to the program: one CreateNodes of the difference.
    const back = await s.change({ ...base, capacityOwner: "program" });
    expect(back.previewed.operations.map((o) => [o.call, o.summary])).toEqual([["CreateNodes", "adds 1 node(s) to nodearray execute (2 -> 3)"]]);
    expect(calls(back.writes)).toEqual(["CreateNodes demo"]);
    expect(await poolNodes(s.plane, s.r.outputs.nodeIds)).toHaveLength(3);

    await s.r.destroy();
  });
});

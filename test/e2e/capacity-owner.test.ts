import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { senlinClusters, senlinMutations, senlinRest } from "../harness/senlin-stack";
import { applyArgs, planArgs, type TofuDir } from "../harness/tofu";
import { openTofuPlane, type TofuPlane } from "../harness/tofu-plane";

/*
 * capacity_owner (docs/lifecycle.md) through the real OpenTofu, on the Senlin example: what tofu
 * itself checks of a plan that keeps a configured size at its prior value (its objchange rules, and
 * an apply's result against the plan) and what it prints. Each engine's planning and calls are
 * tested in process (provider/engines/platform-capacity.test.ts).
 */

const oneLine = (s: string) => s.replace(/\s+/g, " ");

describe("capacity_owner through OpenTofu (examples/hcl/senlin)", () => {
  let t: TofuPlane;
  let dir: TofuDir;
  const cluster = (settings: string) => writeFileSync(path.join(dir.dir, "capacity_override.tf"), `resource "clusterform_senlin_cluster" "web" {\n${settings}}\n`);
  const live = async () => {
    const [c] = await senlinClusters(t.plane);
    return { desired: c.desired_capacity, min: c.min_size, max: c.max_size };
  };

  beforeAll(async () => {
    t = await openTofuPlane();
    dir = t.open("senlin", "capacity-owner");
  });
  afterAll(async () => {
    await t?.plane.stop();
  });

  it("keeps a size a webhook moved, clamps it to new bounds with a warning, and resizes once when handed back", async () => {
    cluster('  capacity_owner = "platform"\n');
    await dir.ok(applyArgs({ desired_capacity: 1 }));
    const id = String((await dir.resources())["clusterform_senlin_cluster.web"].values.id);

    // A receiver's webhook scales the cluster out by 3, outside the configuration.
    const rest = await senlinRest(t.plane);
    const receiver = await rest.call("POST", "/v1/receivers", { receiver: { name: "grow", type: "webhook", cluster_id: id, action: "CLUSTER_SCALE_OUT", params: { count: 3 } } });
    expect(receiver.status).toBe(201);
    const url = new URL(receiver.body.receiver.channel.alarm_url);
    const fired = await fetch(`${t.plane.url}${url.pathname}${url.search}`, { method: "POST" });
    expect(fired.status).toBe(202);
    expect(await rest.waitAction(((await fired.json()) as { action: string }).action)).toBe("SUCCEEDED");
    expect(await live()).toEqual({ desired: 4, min: 0, max: 5 });

    let since = await t.plane.lastSeq();
    // No change to the cluster: only the example's node_ids output moves with the new nodes.
    const quiet = await dir.ok(planArgs({ desired_capacity: 1 }));
    expect(quiet.stdout).toContain("without changing any real infrastructure");
    expect(quiet.stdout).not.toMatch(/will be updated in-place|Plan: \d+ to add/);
    await dir.ok(applyArgs({ desired_capacity: 1 }));
    expect(senlinMutations(await t.plane.audit(since))).toEqual([]);

    // max_size 2 below the live 4: the plan warns of the clamp, and the apply's resize truncates it.
    cluster('  capacity_owner = "platform"\n  max_size = 2\n');
    const clamp = await dir.ok(planArgs({ desired_capacity: 1 }));
    expect(oneLine(clamp.stdout + clamp.stderr)).toContain("clusterform: clusterform_senlin_cluster clamps desired_capacity from 4 to 2");
    since = await t.plane.lastSeq();
    await dir.ok(applyArgs({ desired_capacity: 1 }));
    expect(senlinMutations(await t.plane.audit(since))).toEqual([`ResizeCluster ${id}`]);
    expect(await live()).toEqual({ desired: 2, min: 0, max: 2 });

    // Handed back to the configuration: one resize to its 1.
    cluster('  capacity_owner = "program"\n  max_size = 2\n');
    since = await t.plane.lastSeq();
    await dir.ok(applyArgs({ desired_capacity: 1 }));
    expect(senlinMutations(await t.plane.audit(since))).toEqual([`ResizeCluster ${id}`]);
    expect(await live()).toEqual({ desired: 1, min: 0, max: 2 });
    const done = await dir.run(planArgs({ desired_capacity: 1 }, ["-detailed-exitcode"]));
    expect(done.code, done.stdout + done.stderr).toBe(0);
  });
});

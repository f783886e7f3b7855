import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdapterPlane, auditSeq, platformWrites, startStuckPlane, untilWritten, type WaitingCase } from "../testing";
import type { TfValue } from "./codec";
import { terraformTypeName } from "./kind-modules";
import { configOf, dv, errorsOf, proposedNew, startTofuProvider, type TofuProvider, decodedValue } from "./testing";

// StopProvider (Ctrl-C in tofu), through the tfplugin6 service on an in-memory Connect router,
// against a plane whose operations never end by themselves (time scale 1 on a clock that stands
// still): an apply whose create waits for its object is in flight until the provider is stopped.

type TfObject = Record<string, TfValue>;

const STOPPED =
  "clusterform: stopped (StopProvider, e.g. Ctrl-C) while waiting for the platform; the operation may still be running there. Run apply again: it adopts what a create left behind and plans anything else anew";

let plane: AdapterPlane & { cases: WaitingCase[] };
let tofu: TofuProvider;
beforeAll(async () => {
  plane = await startStuckPlane();
  const block = Object.fromEntries(Object.entries(plane.settings).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]));
  // An abandoned wait ends once the plane is gone, instead of retrying it for a minute.
  tofu = await startTofuProvider({ ...block, unreachable_timeout: "0s" });
});
afterAll(async () => {
  await plane?.close();
});

/** HCL values of a waiting case's program (the few names these programs use). */
function hcl(c: WaitingCase): TfObject {
  const names: Record<string, string> = { respoolId: "respool_id", instanceCount: "instance_count", defaultSpec: "default_spec", desiredCapacity: "desired_capacity", clusterName: "cluster_name", kubernetesVersion: "kubernetes_version", controlPlane: "control_plane", vclusterName: "vcluster_name", count: "node_count" };
  const rename = (v: unknown): unknown =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [names[k] ?? k.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`), rename(x)]))
      : Array.isArray(v)
        ? v.map(rename)
        : v;
  return rename(c.program) as TfObject;
}

/** Plans the create of a case's object and starts its apply: the apply's answer, once sent. */
async function startApply(c: WaitingCase): Promise<{ answer: ReturnType<TofuProvider["client"]["applyResourceChange"]> }> {
  const typeName = terraformTypeName(c.type);
  const schema = tofu.schemaOf(typeName);
  const config = configOf(schema, hcl(c));
  const plan = await tofu.client.planResourceChange({ typeName, priorState: dv(schema, null), proposedNewState: dv(schema, proposedNew(schema, null, config)), config: dv(schema, config) });
  expect(plan.diagnostics).toEqual([]);
  return { answer: tofu.client.applyResourceChange({ typeName, priorState: dv(schema, null), plannedState: plan.plannedState, config: dv(schema, config), plannedPrivate: plan.plannedPrivate }) };
}

describe("StopProvider", () => {
  it("ends every apply in flight at once, one kind of each platform, and refuses a later update before any platform call", async () => {
    // A later update: the Peloton pool the plane holds, imported and planned with a new description.
    const poolType = "clusterform_peloton_resource_pool";
    const pool = tofu.schemaOf(poolType);
    const [imported] = (await tofu.client.importResourceState({ typeName: poolType, id: String(plane.cases.find((c) => c.type === "peloton:StatelessJob")!.program.respoolId) })).importedResources;
    const prior = decodedValue(pool, imported.state)!;
    const config = configOf(pool, { name: prior.name, description: "stopped" });
    const update = await tofu.client.planResourceChange({ typeName: poolType, priorState: imported.state, proposedNewState: dv(pool, proposedNew(pool, prior, config)), config: dv(pool, config), priorPrivate: imported.private });
    expect(update.diagnostics).toEqual([]);

    const since = await auditSeq(plane.t);
    const inFlight = await Promise.all(plane.cases.map(startApply));
    await Promise.all(plane.cases.map((c) => untilWritten(plane.t, c.api, since, c.createWrite)));
    expect(await tofu.client.stopProvider({})).toEqual(expect.objectContaining({ Error: "" }));
    const answers = await Promise.all(inFlight.map((a) => a.answer));
    for (const [i, c] of plane.cases.entries()) {
      expect(errorsOf(answers[i].diagnostics), c.type).toEqual([{ summary: STOPPED, detail: "" }]);
    }

    const before = await auditSeq(plane.t);
    const late = await tofu.client.applyResourceChange({ typeName: poolType, priorState: imported.state, plannedState: update.plannedState, config: dv(pool, config), plannedPrivate: update.plannedPrivate });
    expect(errorsOf(late.diagnostics)).toEqual([{ summary: STOPPED, detail: "" }]);
    // A read through the same provider after it: the pool is as it was, and nothing was written.
    const read = await tofu.client.readResource({ typeName: poolType, currentState: imported.state, private: imported.private });
    expect(decodedValue(pool, read.newState)!.description).toBe(prior.description);
    expect(await platformWrites(plane.t, "peloton", before)).toEqual([]);
  });
});

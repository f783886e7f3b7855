import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadKinds } from "../cli/plan/planners";
import type { KindType } from "../kinds";
import { DRIVERS } from "./field-tables/testing";
import { type AdapterPlane, auditSeq, type DrivenResource, ENGINE_NAMES, auditEntries, InOrder, PARENT_POOL, READ_OPERATION, startAdapterPlane } from "./testing";

/*
 * deletionPolicy (provider/core/deletion.ts) through the three adapters' own protocol surfaces
 * (the dynamic provider's methods, the native plugin's gRPC service, tfplugin6), against the local
 * control plane: a protected object's replacement fails at preview and its destroy fails (OpenTofu:
 * at plan) with no platform call; an abandoned object's destroy forgets it and leaves it on the
 * platform; changing the policy is an update that sends nothing.
 */

type Props = Record<string, unknown>;

/** One kind per platform that has the policy: its program, a change that replaces it, and where the plane lists its objects. */
const CASES: readonly { type: KindType; api: string; program: Props; replace: Props; live: (plane: AdapterPlane, outputs: Props) => Promise<boolean> }[] = [
  {
    type: "cmassh:Cluster",
    api: "cmassh",
    program: { name: "kept", kubernetesVersion: "1.31.6", controlPlane: { instanceType: "standard", count: 1 } },
    replace: { controlPlane: { instanceType: "gpu", count: 1 } },
    live: async (plane, outputs) => {
      const { body } = await plane.t.http("GET", "/_local/cmassh/clusters");
      return (body as { clusters: { name: string }[] }).clusters.some((c) => c.name === outputs.name);
    },
  },
  {
    type: "peloton:ResourcePool",
    api: "peloton",
    program: { name: "kept", description: "kept jobs" },
    replace: { parent: PARENT_POOL },
    live: async (plane, outputs) => {
      const { body } = await plane.t.http("GET", "/_local/peloton/respools");
      return (body as { respools: { id: string }[] }).respools.some((p) => p.id === outputs.id);
    },
  },
];

let plane: AdapterPlane;
beforeAll(async () => {
  await loadKinds();
  plane = await startAdapterPlane();
});
afterAll(async () => {
  await plane?.close();
});

/** The platform calls on one object (its name or id in the audit's target) since `since`: the engines' stacks run side by side on one plane. */
const callsOn = async (api: string, since: number, outputs: Props) =>
  (await auditEntries(plane.t, api, since)).filter((e) => e.target.includes(String(outputs.name)) || e.target.includes(String(outputs.id))).map((e) => e.operation);
/**
 * What a refused step may have sent for the object: nothing on the Pulumi engines; on OpenTofu the
 * reads of the refresh every plan starts with (the refusal comes before any write).
 */
const refusedCalls = (engine: string, calls: string[]) => (engine === "terraform" ? calls.filter((op) => !READ_OPERATION.test(op)) : calls);

describe.concurrent("deletionPolicy on every engine, decided by the core", () => {
  for (const c of CASES) {
    for (const engine of ENGINE_NAMES) {
      describe(`${c.type} on ${engine}`, () => {
        const steps = new InOrder();
        let resource: DrivenResource;
        const field = engine === "terraform" ? "deletion_policy" : "deletionPolicy";
        const program = (extra: Props) => ({ inputs: { ...c.program, name: `${c.program.name}-${engine}`, ...extra } });

        it("creates a protected object as any other", () =>
          steps.step("create", async () => {
            resource = await DRIVERS[engine].open(c.type, "kept", `deletion-${engine}`, plane);
            expect((await resource.apply(program({ deletionPolicy: "protect" }))).op).toBe("create");
            expect(await c.live(plane, resource.outputs)).toBe(true);
          }));

        it("refuses its replacement at preview, naming the object and how to turn the policy off, with no platform write (none at all on Pulumi)", () =>
          steps.step("replace", async () => {
            const since = await auditSeq(plane.t);
            await expect(resource.preview(program({ deletionPolicy: "protect", ...c.replace }))).rejects.toThrow(
              new RegExp(`planning the replacement of ${c.type} .*DELETION_PROTECTED: its ${field} is "protect".*set ${field} to "delete" and apply that change first`),
            );
            expect(refusedCalls(engine, await callsOn(c.api, since, resource.outputs))).toEqual([]);
          }));

        it("refuses its destroy (OpenTofu: at plan) with no platform write (none at all on Pulumi), and the object stays", () =>
          steps.step("destroy protected", async () => {
            const since = await auditSeq(plane.t);
            await expect(resource.destroy()).rejects.toThrow(new RegExp(`deleting ${c.type} .*DELETION_PROTECTED: its ${field} is "protect", so it was not deleted`));
            expect(refusedCalls(engine, await callsOn(c.api, since, resource.outputs))).toEqual([]);
            expect(await c.live(plane, resource.outputs)).toBe(true);
          }));

        it("changes the policy to abandon as an update that writes nothing, then forgets the object on destroy and leaves it on the platform", () =>
          steps.step("abandon", async () => {
            const since = await auditSeq(plane.t);
            expect((await resource.apply(program({ deletionPolicy: "abandon" }))).op).toBe("update");
            const outputs = resource.outputs;
            // The kind's update runs with nothing to send (it may read the object it converges on).
            expect((await callsOn(c.api, since, outputs)).filter((op) => !READ_OPERATION.test(op))).toEqual([]);
            expect(outputs.deletionPolicy).toBe("abandon");
            const destroying = await auditSeq(plane.t);
            await resource.destroy();
            expect(await callsOn(c.api, destroying, outputs)).toEqual([]);
            expect(await c.live(plane, outputs)).toBe(true);
          }));
      });
    }
  }
});

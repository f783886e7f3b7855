import { rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { expect } from "vitest";
import { buildResourceType } from "../../provider/engines/terraform/schema";
import { kindOf, KIND_TYPES } from "../../provider/kinds";
import { terraformTypeName } from "../../provider/engines/terraform/kind-modules";
import { errorsOf, startTofuProvider } from "../../provider/engines/terraform/testing";
import type { TofuDir } from "../harness/tofu";
import type { TofuPlane } from "../harness/tofu-plane";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The import id of every Terraform type as docs/import.md states it for `pulumi import` (the id an
 * apply records must have that shape), and an id of that shape that names nothing on the plane
 * (the docs' example).
 */
export const IMPORT_IDS: Readonly<Record<string, { shape: RegExp; unknown: string }>> = {
  clusterform_cmassh_cluster: { shape: /^[a-z0-9-]+$/, unknown: "prod-eu" },
  clusterform_cmassh_node_pool: { shape: /^[a-z0-9-]+\/[a-z0-9-]+$/, unknown: "prod-eu/general" },
  clusterform_cyclecloud_node_pool: { shape: /^[^/]+\/[^/]+\/clusterform-[0-9a-f]+-[0-9a-f]+$/, unknown: "demo/execute/clusterform-0123456789abcdef-1a2b3c4d" },
  clusterform_senlin_cluster: { shape: UUID, unknown: "0a9b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d" },
  clusterform_senlin_profile: { shape: UUID, unknown: "5b2a7c1e-9d3f-4e6a-8b0c-1d2e3f4a5b6c" },
  clusterform_senlin_policy: { shape: UUID, unknown: "7c3d9e2f-1a4b-4c5d-9e6f-0a1b2c3d4e5f" },
  clusterform_peloton_resource_pool: { shape: UUID, unknown: "7d2c1f7e-0b6a-8c3d-9e4f-5a6b7c8d9e0f" },
  clusterform_peloton_stateless_job: { shape: UUID, unknown: "3f1e2d3c-4b5a-8697-a8b9-c0d1e2f3a4b5" },
  clusterform_vcluster_vcluster: { shape: /^vc-[0-9]+-[0-9]+$/, unknown: "vc-1700000001-1" },
  clusterform_vcluster_snapshot: { shape: /^snap-[0-9]+-[0-9]+$/, unknown: "snap-1700000002-1" },
};

/** An id no kind accepts (a space and a `!`): refused before any call. */
const WRONG_SHAPE = "bad id!";

/**
 * The attributes of a type that its platform cannot report (the definition's importId.unreported,
 * in HCL names), plus `timeouts` (Clusterform's own setting, never on a platform): after an import
 * these are null in the state, so the first plan may set them from the configuration.
 */
async function unreportedOf(typeName: string): Promise<string[]> {
  const found = KIND_TYPES.find((k) => terraformTypeName(k) === typeName);
  if (!found) throw new Error(`no kind serves ${typeName}`);
  const kind = await kindOf(found);
  const type = buildResourceType(kind);
  const fields = [...(kind.importId?.unreported ?? []), "timeouts"];
  return type.attributes.filter((a) => fields.includes(a.field)).map((a) => a.name);
}

/** The kind a Terraform type serves (`cmassh:Cluster`). */
const kindNameOf = (typeName: string) => KIND_TYPES.find((k) => terraformTypeName(k) === typeName)!;

/** An import of an id of the right shape that names nothing fails naming the kind, the id and that nothing is there. */
function expectUnknownRefused(kindName: string, id: string, message: string): void {
  expect(oneLine(message)).toContain(`importing ${kindName} "${id}"`);
  expect(oneLine(message)).toContain("no such object at");
}

const varArgs = (vars: Record<string, string | number>) => Object.entries(vars).flatMap(([k, v]) => ["-var", `${k}=${v}`]);
const oneLine = (text: string) => text.replace(/\s+/g, " ");

/**
 * Attributes, by address, that an import reports in another form than the configuration writes
 * them (a Senlin cluster's profile and policies come back by name where a configuration gives ids):
 * the first plan after the import updates them in place, and its apply records them with no
 * platform write, as for the inputs a platform cannot report.
 */
export type Gaps = Readonly<Record<string, readonly string[]>>;

interface PlannedChange {
  address: string;
  change: { actions: string[]; before: Record<string, unknown>; after: Record<string, unknown> };
}

/**
 * A saved plan's changes: each resource is untouched, or updated in place in the attributes its
 * platform could not report only (nothing created, replaced or deleted). @returns the plan file
 */
async function expectOnlyUnreported(dir: TofuDir, vars: Record<string, string | number>, types: Record<string, string>, gaps: Gaps): Promise<string> {
  const planFile = "import.tfplan";
  await dir.ok(["plan", "-input=false", "-no-color", `-out=${planFile}`, ...varArgs(vars)]);
  const shown = JSON.parse((await dir.ok(["show", "-json", "-no-color", planFile])).stdout) as { resource_changes?: PlannedChange[] };
  for (const rc of shown.resource_changes ?? []) {
    const changed = Object.keys(rc.change.after ?? {}).filter((k) => JSON.stringify(rc.change.before?.[k] ?? null) !== JSON.stringify(rc.change.after[k] ?? null));
    const shown = changed.map((k) => `${k}: ${JSON.stringify(rc.change.before?.[k])} -> ${JSON.stringify(rc.change.after[k])}`).join("; ");
    expect(["no-op", "update"], `${rc.address}: ${rc.change.actions} (${shown})`).toContain(rc.change.actions.join(","));
    if (rc.change.actions[0] !== "update") continue;
    const unreported = await unreportedOf(types[rc.address]);
    for (const attr of changed) expect([...unreported, ...(gaps[rc.address] ?? [])], `${rc.address} changes ${attr} after an import: ${JSON.stringify(rc.change.before?.[attr])} -> ${JSON.stringify(rc.change.after[attr])}`).toContain(attr);
  }
  return planFile;
}

/** Platform writes since an audit entry; a Keystone token is a log-in, not a write. */
async function writesSince(t: TofuPlane, since: number): Promise<string[]> {
  return (await t.mutationsSince(since)).filter((op) => op !== "CreateToken");
}

/** A plan with nothing to do. */
async function expectQuiet(dir: TofuDir, vars: Record<string, string | number>): Promise<void> {
  const plan = await dir.run(["plan", "-input=false", "-no-color", "-detailed-exitcode", ...varArgs(vars)]);
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
}

/**
 * Every resource of a working directory imported back, by the id its apply recorded (the same id
 * `pulumi import` takes): first an unknown id fails naming the kind and the id (through tofu for the
 * first resource, with a wrong-shape id that fails naming the shape with no call to the platform;
 * for the others through the provider's service in this process; the configuration's data sources may read), then `tofu import` of each resource, a
 * plan that changes at most the inputs its platform cannot report, its apply and a plan with nothing
 * to do; then the same through `import {}` blocks. Import makes no platform write, nor does the apply
 * that records the unreported inputs.
 */
export async function importEverything(
  t: TofuPlane,
  dir: TofuDir,
  vars: Record<string, string | number>,
  gaps: Gaps = {},
  /** The operations of the configuration's data sources, which tofu reads for any command that evaluates it. */
  dataReads: readonly string[] = [],
): Promise<void> {
  const resources = dir.stored();
  const types = Object.fromEntries(Object.keys(resources).map((address) => [address, address.split(".")[0]]));
  const ids = Object.fromEntries(Object.entries(resources).map(([address, r]) => [address, String(r.values.id)]));
  for (const [address, id] of Object.entries(ids)) expect(id, address).toMatch(IMPORT_IDS[types[address]].shape);
  const addresses = Object.keys(ids);
  await dir.ok(["state", "rm", "-no-color", ...addresses]);
  const since = await t.plane.lastSeq();

  for (const [i, address] of addresses.entries()) {
    const kindName = kindNameOf(types[address]);
    // The shape check and the unknown id through tofu, once per platform: tofu shows the provider's
    // error as it is. The other resources' unknown ids are refused in this process below, by the
    // same ImportResourceState (one tofu run less for each).
    if (i === 0) {
      const beforeWrong = await t.plane.lastSeq();
      const wrong = await dir.run(["import", "-input=false", "-no-color", ...varArgs(vars), address, WRONG_SHAPE]);
      expect(wrong.code, wrong.stdout).toBe(1);
      expect(oneLine(wrong.stderr)).toContain(`importing ${kindName} "${WRONG_SHAPE}"`);
      expect(oneLine(wrong.stderr)).toContain(`"${WRONG_SHAPE}" has the wrong shape`);
      expect((await t.plane.audit(beforeWrong)).filter((e) => e.api === kindName.split(":")[0] && !dataReads.includes(e.operation))).toEqual([]);
      const unknown = await dir.run(["import", "-input=false", "-no-color", ...varArgs(vars), address, IMPORT_IDS[types[address]].unknown]);
      expect(unknown.code, unknown.stdout).toBe(1);
      expectUnknownRefused(kindName, IMPORT_IDS[types[address]].unknown, unknown.stderr);
    }
    await dir.ok(["import", "-input=false", "-no-color", ...varArgs(vars), address, ids[address]]);
  }
  const others = addresses.slice(1);
  if (others.length > 0) {
    const provider = await startTofuProvider(t.providerConfig);
    for (const address of others) {
      const unknown = IMPORT_IDS[types[address]].unknown;
      const answer = await provider.client.importResourceState({ typeName: types[address], id: unknown });
      expect(answer.importedResources, address).toEqual([]);
      expectUnknownRefused(kindNameOf(types[address]), unknown, errorsOf(answer.diagnostics).map((e) => `${e.summary}: ${e.detail}`).join("\n"));
    }
  }
  const planFile = await expectOnlyUnreported(dir, vars, types, gaps);
  await dir.ok(["apply", "-input=false", "-no-color", planFile]);
  expect(await writesSince(t, since)).toEqual([]);
  await expectQuiet(dir, vars);

  // The same through import blocks: one apply imports them all (and records the unreported inputs).
  await dir.ok(["state", "rm", "-no-color", ...addresses]);
  const blocks = addresses.map((address) => `import {\n  to = ${address}\n  id = ${JSON.stringify(ids[address])}\n}\n`).join("\n");
  writeFileSync(path.join(dir.dir, "import.tf"), blocks);
  const blockSince = await t.plane.lastSeq();
  const applied = await dir.ok(["apply", "-auto-approve", "-input=false", "-no-color", ...varArgs(vars)]);
  expect(applied.stdout).toMatch(new RegExp(`Plan: ${addresses.length} to import, 0 to add, \\d+ to change, 0 to destroy`));
  expect(applied.stdout).toMatch(new RegExp(`Apply complete! Resources: ${addresses.length} imported, 0 added, \\d+ changed, 0 destroyed`));
  rmSync(path.join(dir.dir, "import.tf"));
  expect(await writesSince(t, blockSince)).toEqual([]);
  await expectQuiet(dir, vars);
  expect(Object.fromEntries(Object.entries(dir.stored()).map(([a, r]) => [a, r.values.id]))).toEqual(ids);
}

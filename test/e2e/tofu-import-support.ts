import { readFileSync, rmSync, writeFileSync } from "node:fs";
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

/** A Terraform type's resource type (attributes in HCL names), from the kind that serves it. */
async function typeOf(typeName: string) {
  const found = KIND_TYPES.find((k) => terraformTypeName(k) === typeName);
  if (!found) throw new Error(`no kind serves ${typeName}`);
  const kind = await kindOf(found);
  return { kind, type: buildResourceType(kind) };
}

/**
 * The attributes of a type that its platform cannot report (the definition's importId.unreported,
 * in HCL names), plus `timeouts` (Clusterform's own setting, never on a platform): after an import
 * these are null in the state, so the first plan may set them from the configuration.
 */
async function unreportedOf(typeName: string): Promise<string[]> {
  const { kind, type } = await typeOf(typeName);
  const fields = [...(kind.importId?.unreported ?? []), "timeouts"];
  return type.attributes.filter((a) => fields.includes(a.field)).map((a) => a.name);
}

/** What a valid import id of a type is, as the provider's refusals say it (provider/core/import.ts). */
async function expectedIdOf(typeName: string): Promise<string> {
  const { kind } = await typeOf(typeName);
  return `the import id of ${kind.type} is ${kind.importId?.shape}`;
}

/**
 * The top-level attributes the state file marks sensitive, by address (OpenTofu stores the marks of
 * the provider's schema with each instance), read without a tofu run.
 */
function sensitiveStored(dir: TofuDir): Record<string, string[]> {
  type Instance = { index_key?: unknown; sensitive_attributes?: { value?: string }[][] };
  const state = JSON.parse(readFileSync(path.join(dir.dir, "terraform.tfstate"), "utf8")) as { resources: { mode: string; type: string; name: string; instances: Instance[] }[] };
  const out: Record<string, string[]> = {};
  for (const r of state.resources.filter((resource) => resource.mode === "managed")) {
    for (const i of r.instances) out[`${r.type}.${r.name}`] = [...new Set((i.sensitive_attributes ?? []).map((p) => String(p[0]?.value)))].sort();
  }
  return out;
}

/** The kind a Terraform type serves (`cmassh:Cluster`). */
const kindNameOf = (typeName: string) => KIND_TYPES.find((k) => terraformTypeName(k) === typeName)!;

/**
 * An import of an id of the right shape that names nothing fails naming the kind, the id, that
 * nothing is there, and what a valid id of the kind is (`expected`: {@link expectedIdOf}).
 */
function expectUnknownRefused(kindName: string, id: string, message: string, expected: string): void {
  expect(oneLine(message)).toContain(`importing ${kindName} "${id}"`);
  expect(oneLine(message)).toContain("no such object at");
  expect(oneLine(message)).toContain(expected);
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
 * platform could not report only (nothing created, replaced or deleted). @returns the plan file and
 * what the plan printed
 */
async function expectOnlyUnreported(dir: TofuDir, vars: Record<string, string | number>, types: Record<string, string>, gaps: Gaps): Promise<{ planFile: string; stdout: string }> {
  const planFile = "import.tfplan";
  const { stdout } = await dir.ok(["plan", "-input=false", "-no-color", `-out=${planFile}`, ...varArgs(vars)]);
  const shown = JSON.parse((await dir.ok(["show", "-json", "-no-color", planFile])).stdout) as { resource_changes?: PlannedChange[] };
  for (const rc of shown.resource_changes ?? []) {
    const changed = Object.keys(rc.change.after ?? {}).filter((k) => JSON.stringify(rc.change.before?.[k] ?? null) !== JSON.stringify(rc.change.after[k] ?? null));
    const shown = changed.map((k) => `${k}: ${JSON.stringify(rc.change.before?.[k])} -> ${JSON.stringify(rc.change.after[k])}`).join("; ");
    expect(["no-op", "update"], `${rc.address}: ${rc.change.actions} (${shown})`).toContain(rc.change.actions.join(","));
    if (rc.change.actions[0] !== "update") continue;
    const unreported = await unreportedOf(types[rc.address]);
    for (const attr of changed) expect([...unreported, ...(gaps[rc.address] ?? [])], `${rc.address} changes ${attr} after an import: ${JSON.stringify(rc.change.before?.[attr])} -> ${JSON.stringify(rc.change.after[attr])}`).toContain(attr);
  }
  return { planFile, stdout };
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
 * `pulumi import` takes), with reads only. The first resource through `tofu import`: a wrong-shape id
 * fails naming the shape with no call to the platform (the configuration's data sources may read),
 * an unknown id fails naming the kind, the id and what a valid id is, and its own id imports it with
 * the status the platform reports. The others' unknown ids are refused the same way through the
 * provider's service in this process, and they are imported by `import {}` blocks. One saved plan
 * then changes at most the inputs each platform cannot report, its apply writes nothing to any
 * platform, a plan after it has nothing to do, and the state names the same ids, with the same
 * attributes sensitive (a kubeconfig) and the same status as before.
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
  const statuses = Object.fromEntries(Object.entries(resources).map(([address, r]) => [address, r.values.status]));
  const sensitive = sensitiveStored(dir);
  // Not vacuous: every attribute the schema marks sensitive and the object has (a kubeconfig) is marked.
  for (const [address, r] of Object.entries(resources)) {
    const marked = (await typeOf(types[address])).type.attributes.filter((a) => a.sensitive && r.values[a.name] !== null && r.values[a.name] !== undefined).map((a) => a.name);
    expect(sensitive[address], address).toEqual(expect.arrayContaining(marked));
  }
  const addresses = Object.keys(ids);
  const [first, ...others] = addresses;
  await dir.ok(["state", "rm", "-no-color", ...addresses]);
  const since = await t.plane.lastSeq();

  // The shape check, the unknown id and the import command through tofu, once per platform: tofu
  // shows the provider's error as it is.
  const kindName = kindNameOf(types[first]);
  const beforeWrong = await t.plane.lastSeq();
  const wrong = await dir.run(["import", "-input=false", "-no-color", ...varArgs(vars), first, WRONG_SHAPE]);
  expect(wrong.code, wrong.stdout).toBe(1);
  expect(oneLine(wrong.stderr)).toContain(`importing ${kindName} "${WRONG_SHAPE}"`);
  expect(oneLine(wrong.stderr)).toContain(`"${WRONG_SHAPE}" has the wrong shape: ${await expectedIdOf(types[first])}`);
  expect((await t.plane.audit(beforeWrong)).filter((e) => e.api === kindName.split(":")[0] && !dataReads.includes(e.operation))).toEqual([]);
  const unknown = await dir.run(["import", "-input=false", "-no-color", ...varArgs(vars), first, IMPORT_IDS[types[first]].unknown]);
  expect(unknown.code, unknown.stdout).toBe(1);
  expectUnknownRefused(kindName, IMPORT_IDS[types[first]].unknown, unknown.stderr, await expectedIdOf(types[first]));
  await dir.ok(["import", "-input=false", "-no-color", ...varArgs(vars), first, ids[first]]);
  // The import alone recorded the object as the platform reports it.
  expect(dir.stored()[first]?.values).toMatchObject({ id: ids[first], ...(statuses[first] === undefined ? {} : { status: statuses[first] }) });

  // The other resources' unknown ids, by the same ImportResourceState in this process (one tofu run
  // less for each); their own ids through import blocks, in the plan that follows.
  if (others.length > 0) {
    const provider = await startTofuProvider(t.providerConfig);
    for (const address of others) {
      const id = IMPORT_IDS[types[address]].unknown;
      const answer = await provider.client.importResourceState({ typeName: types[address], id });
      expect(answer.importedResources, address).toEqual([]);
      expectUnknownRefused(kindNameOf(types[address]), id, errorsOf(answer.diagnostics).map((e) => `${e.summary}: ${e.detail}`).join("\n"), await expectedIdOf(types[address]));
    }
    writeFileSync(path.join(dir.dir, "import.tf"), others.map((address) => `import {\n  to = ${address}\n  id = ${JSON.stringify(ids[address])}\n}\n`).join("\n"));
  }
  const plan = await expectOnlyUnreported(dir, vars, types, gaps);
  const applied = await dir.ok(["apply", "-input=false", "-no-color", plan.planFile]);
  if (others.length > 0) {
    for (const address of others) expect(plan.stdout).toContain(`${address}: Preparing import... [id=${ids[address]}]`);
    expect(plan.stdout).toMatch(new RegExp(`Plan: ${others.length} to import, 0 to add, \\d+ to change, 0 to destroy`));
    expect(applied.stdout).toMatch(new RegExp(`Apply complete! Resources: ${others.length} imported, 0 added, \\d+ changed, 0 destroyed`));
    rmSync(path.join(dir.dir, "import.tf"));
  }
  expect(await writesSince(t, since)).toEqual([]);
  await expectQuiet(dir, vars);
  const stored = dir.stored();
  expect(Object.fromEntries(Object.entries(stored).map(([a, r]) => [a, r.values.id]))).toEqual(ids);
  expect(Object.fromEntries(Object.entries(stored).map(([a, r]) => [a, r.values.status]))).toEqual(statuses);
  expect(sensitiveStored(dir)).toEqual(sensitive);
}

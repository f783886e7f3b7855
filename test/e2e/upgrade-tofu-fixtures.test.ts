import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { terraformTypeName } from "../../provider/engines/terraform/kind-modules";
import { type AuditEntry, type LocalPlane, writes } from "../harness/local-plane";
import { applyArgs, openTofuDir, planArgs, type TofuDir, type TofuResult } from "../harness/tofu";
import { PLATFORM_CREDENTIALS_ENV } from "../harness/tofu-plane";
import {
  ALL_KINDS,
  changesSince,
  editedProgram,
  fixtureInventory,
  fixtures,
  objectsOf,
  planePasswords,
  rewriteEndpoint,
  startFixturePlane,
  storedAfterChanges,
} from "../harness/upgrade-fixture";
import { packageWorkspace } from "../harness/workspace";

// Upgrade safety on OpenTofu: each directory under test/fixtures/upgrade-tofu holds main.tf and the
// terraform.tfstate a release's provider left (scripts/write-upgrade-fixture.sh --engine tofu). The
// current provider takes the state over, against a plane seeded with the same objects: a plan without
// refresh plans nothing and calls no platform, a plan with refresh plans nothing and writes nothing,
// a refresh-only apply changes nothing, destroy removes every object.

/** One resource instance of terraform.tfstate. */
interface TfInstance {
  schema_version: number;
  attributes: Record<string, unknown>;
  sensitive_attributes?: { type: string; value: string }[][];
}
interface TfResource {
  mode: string;
  type: string;
  name: string;
  instances: TfInstance[];
}

const KIND_OF_TYPE = new Map(ALL_KINDS.map((k) => [terraformTypeName(k), k]));

/** The managed resources of a state file's text, each with its kind. */
function managed(stateText: string): (TfResource & { kind: string })[] {
  const state = JSON.parse(stateText) as { resources?: TfResource[] };
  return (state.resources ?? []).filter((r) => r.mode === "managed").map((r) => ({ ...r, kind: KIND_OF_TYPE.get(r.type) ?? `unknown ${r.type}` }));
}

const all = fixtures("tofu");

it("finds the fixtures, the newest holding every resource kind, each instance with the schema version its provider gave", () => {
  expect(all.length).toBeGreaterThan(0);
  const newest = managed(readFileSync(path.join(all[all.length - 1].dir, "terraform.tfstate"), "utf8"));
  expect([...new Set(newest.map((r) => r.kind))].sort()).toEqual(ALL_KINDS);
  for (const r of newest) for (const i of r.instances) expect({ type: r.type, schemaVersion: i.schema_version }).toEqual({ type: r.type, schemaVersion: expect.any(Number) });
});

describe.each(all)("the state written by release $version", (fixture) => {
  const { meta, dir, version } = fixture;
  const stateText = readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
  const config = readFileSync(path.join(dir, "main.tf"), "utf8");
  const resources = managed(stateText);
  const instances = resources.flatMap((r) => r.instances.map((i) => ({ address: `${r.type}.${r.name}`, kind: r.kind, ...i })));
  const host = new URL(meta.recordedEndpoint).host;

  let plane: LocalPlane;
  let tofu: TofuDir;
  let seeded: string[];
  /** The plane's audit entries during a tofu command. */
  const callsOf = async (command: () => Promise<TofuResult>): Promise<{ result: TofuResult; calls: AuditEntry[] }> => {
    const since = await plane.lastSeq();
    const result = await command();
    return { result, calls: await plane.audit(since) };
  };

  beforeAll(async () => {
    const workspace = packageWorkspace();
    plane = await startFixturePlane(fixture, workspace);
    tofu = openTofuDir(`upgrade-${version}`, { example: "", source: dir, providerDir: path.join(workspace, "node_modules", "clusterform", "bin"), endpoint: plane.url });
    Object.assign(tofu.env, PLATFORM_CREDENTIALS_ENV);
    // The working copy's state names this plane where the fixture's names the one it was written against.
    writeFileSync(path.join(tofu.dir, "terraform.tfstate"), rewriteEndpoint(stateText, meta, plane.url));
    // The configuration as users must change it for the releases since (an attribute the schema no longer has).
    writeFileSync(path.join(tofu.dir, "main.tf"), editedProgram("tofu", fixture, config));
    seeded = await fixtureInventory(plane);
  });

  afterAll(async () => {
    await plane?.stop();
  });

  it("holds no plane password in the configuration or the state, and marks the kubeconfigs and the alarm URL sensitive", () => {
    const passwords = planePasswords(meta);
    expect(passwords.length).toBeGreaterThan(0);
    for (const password of passwords) {
      expect(config).not.toContain(password);
      expect(stateText).not.toContain(password);
    }
    // OpenTofu stores state in plain text: sensitive attributes are only marked (docs/opentofu.md).
    const marked = (i: TfInstance) => (i.sensitive_attributes ?? []).map((p) => p.map((s) => s.value).join("."));
    for (const i of instances.filter((x) => x.kind === "cmassh:Cluster" || x.kind === "vcluster:VCluster")) expect(marked(i)).toContain("kubeconfig");
    for (const i of instances.filter((x) => x.kind === "senlin:Receiver")) expect(marked(i)).toContain("alarm_url");
  });

  it("records the plane's address only in a receiver's alarm URL", () => {
    expect(instances.filter((i) => JSON.stringify(i).includes(host)).map((i) => i.address)).toEqual(
      instances.filter((i) => i.kind === "senlin:Receiver").map((i) => i.address),
    );
    expect(readFileSync(path.join(tofu.dir, "terraform.tfstate"), "utf8")).not.toContain(host);
  });

  it("starts from a plane holding exactly the objects the state lists", () => {
    expect(seeded).toEqual(instances.flatMap((i) => objectsOf(i.kind, String(i.attributes.id), i.attributes.node_ids)).sort());
  });

  it("plans no change without a refresh, and calls no platform", async () => {
    const { result, calls } = await callsOf(() => tofu.run(planArgs({}, ["-refresh=false", "-detailed-exitcode"])));
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain("No changes.");
    expect(calls).toEqual([]);
  });

  it("plans no change with a refresh, and writes nothing", async () => {
    const { result, calls } = await callsOf(() => tofu.run(planArgs({}, ["-detailed-exitcode"])));
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain("No changes.");
    expect(calls.length).toBeGreaterThan(0);
    expect(writes(calls)).toEqual([]);
  });

  it("refreshes every resource without changing any attribute (but as later releases store them), and writes nothing", async () => {
    const recorded = tofu.stored();
    const { result, calls } = await callsOf(() => tofu.ok(applyArgs().concat("-refresh-only")));
    expect(result.stdout).toContain("No changes.");
    expect(writes(calls)).toEqual([]);
    expect(Object.keys(recorded).sort()).toEqual(instances.map((i) => i.address).sort());
    // A field a later release renamed is stored under its new name, with its kind's new schema version.
    const kindAt = Object.fromEntries(instances.map((i) => [i.address, i.kind]));
    const expected = Object.fromEntries(Object.entries(recorded).map(([address, r]) => [address, { values: storedAfterChanges(fixture, kindAt[address], "tofu", r.values, false) }]));
    expect(tofu.stored()).toEqual(expected);
    const versions = managed(readFileSync(path.join(tofu.dir, "terraform.tfstate"), "utf8")).map((r) => [r.kind, r.instances.map((i) => i.schema_version)]);
    const migrated = new Map(changesSince(fixture).map((c) => [c.kind, c.schemaVersion]));
    expect(Object.fromEntries(versions)).toEqual(Object.fromEntries(versions.map(([kind, v]) => [kind, (v as number[]).map(() => migrated.get(kind as string) ?? 0)])));
    expect(await fixtureInventory(plane)).toEqual(seeded);
  });

  it("destroys every object the state lists, leaving the plane empty", async () => {
    const { result } = await callsOf(() => tofu.ok(["destroy", "-auto-approve", "-input=false", "-no-color"]));
    expect(result.stdout).toContain(`Destroy complete! Resources: ${instances.length} destroyed.`);
    expect(await fixtureInventory(plane)).toEqual([]);
    expect(tofu.stored()).toEqual({});
  });
});

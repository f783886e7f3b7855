import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Deployment } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type EngineStack, openStack, type RunResult, resourceSteps } from "./engine";
import { type LocalPlane, writes } from "./local-plane";
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
} from "./upgrade-fixture";
import { packageWorkspace } from "./workspace";

// The upgrade-safety suite of a Pulumi engine (the dynamic provider, the native plugin): each fixture
// of the engine (scripts/write-upgrade-fixture.mjs) is imported into a fresh backend with the current
// package, against a plane started on the fixture's database. Preview plans nothing and calls no
// platform, refresh changes nothing, the up after it changes nothing and calls no platform, destroy
// removes every object. A release adds its own fixture;
// the older ones keep passing.

/** What differs between the two Pulumi engines' states. */
const ENGINES = {
  dynamic: { typePrefix: "pulumi-nodejs:dynamic/", provider: "pulumi:providers:pulumi-nodejs" },
  native: { typePrefix: "clusterform:", provider: "pulumi:providers:clusterform" },
} as const;

/** A resource as `pulumi stack export` lists it. */
interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** Files of a fixture that are not the program and its stack config. */
const NOT_PROGRAM = new Set(["state.json", "fixture.json", "README.md", "plane"]);

/** The file holding each engine's program (the one a release's edit changes). */
const PROGRAM_FILE = { dynamic: "index.js", native: "Pulumi.yaml" } as const;

/** Registers the upgrade-safety tests of every fixture of `engine`. */
export function describePulumiUpgrades(engine: keyof typeof ENGINES): void {
  const { typePrefix, provider } = ENGINES[engine];
  /** `cmassh:Cluster` from the engine's type token; undefined for the stack and providers. */
  const kindOf = (r: { type: string }) => (r.type.startsWith(typePrefix) ? r.type.slice(typePrefix.length) : undefined);
  const userResources = (deployment: Deployment) => ((deployment.deployment.resources ?? []) as StateResource[]).filter((r) => kindOf(r) !== undefined);
  const all = fixtures(engine);

  it("finds the fixtures, the newest holding every resource kind", () => {
    expect(all.length).toBeGreaterThan(0);
    const newest = all[all.length - 1];
    const state = JSON.parse(readFileSync(path.join(newest.dir, "state.json"), "utf8")) as Deployment;
    expect([...new Set(userResources(state).map(kindOf))].sort()).toEqual(ALL_KINDS);
  });

  describe.each(all)("the stack written by release $version", (fixture) => {
    const { meta, dir, version } = fixture;
    const stackName = meta.stack ?? "";
    const stateText = readFileSync(path.join(dir, "state.json"), "utf8");
    const configText = readFileSync(path.join(dir, `Pulumi.${stackName}.yaml`), "utf8");
    const recorded = JSON.parse(stateText) as Deployment;
    const resources = userResources(recorded);
    const host = new URL(meta.recordedEndpoint).host;

    let plane: LocalPlane;
    let stack: EngineStack;
    let decrypted: string;
    let imported: string;
    let seeded: string[];
    let preview: RunResult;
    let previewCalls: unknown[];
    let programDir: string;
    const changes = changesSince(fixture);

    beforeAll(async () => {
      // The package under test, installed as users install it.
      const workspace = packageWorkspace();
      plane = await startFixturePlane(fixture, workspace);
      programDir = mkdtempSync(path.join(workspace, `upgrade-${engine}-${version}-`));
      for (const file of readdirSync(dir).filter((f) => !NOT_PROGRAM.has(f))) cpSync(path.join(dir, file), path.join(programDir, file));
      // The program as users must change it for the releases since (a field their schema no longer has).
      const programFile = path.join(programDir, PROGRAM_FILE[engine]);
      writeFileSync(programFile, editedProgram(engine, fixture, readFileSync(programFile, "utf8"), true));
      // The same stack name as the fixture's: URNs and ownership markers derive from it.
      stack = await openStack({ programDir, stackName });
      // The recorded endpoint becomes this plane's, as if it had kept its port: in the provider
      // configuration (plain), then in the secrets (a receiver's alarm URL), which only the
      // decrypted export shows.
      await stack.stack.importStack(JSON.parse(rewriteEndpoint(stateText, meta, plane.url)) as Deployment);
      decrypted = JSON.stringify(await stack.exportState());
      await stack.stack.importStack(JSON.parse(rewriteEndpoint(decrypted, meta, plane.url)) as Deployment);
      imported = JSON.stringify(await stack.exportState());
      await stack.setConfig("clusterform:endpoint", plane.url);
      seeded = await fixtureInventory(plane);
      const since = await plane.lastSeq();
      preview = await stack.preview();
      previewCalls = await plane.audit(since);
    });

    afterAll(async () => {
      await plane?.stop();
    });

    it("records the plane's address only in the provider configuration and a receiver's alarm URL", () => {
      const holders = ((recorded.deployment.resources ?? []) as StateResource[]).filter((r) => JSON.stringify(r).includes(host));
      expect(holders.map((r) => r.type)).toEqual([provider]);
      // The alarm URL is a secret: only the decrypted state shows it.
      const receivers = resources.filter((r) => kindOf(r) === "senlin:Receiver").map((r) => r.urn);
      const decryptedHolders = (JSON.parse(decrypted).deployment.resources as StateResource[]).filter((r) => JSON.stringify(r).includes(host));
      expect(decryptedHolders.filter((r) => kindOf(r) !== undefined).map((r) => r.urn)).toEqual(receivers);
      expect(imported).not.toContain(host);
    });

    it("keeps the passwords, the kubeconfig and the alarm URL encrypted in the state and the config", () => {
      const passwords = planePasswords(meta);
      expect(passwords.length).toBeGreaterThan(0);
      for (const password of passwords) {
        expect(stateText).not.toContain(password);
        expect(configText).not.toContain(password);
      }
      const cluster = resources.find((r) => kindOf(r) === "cmassh:Cluster");
      expect(cluster?.outputs?.kubeconfig).toHaveProperty("ciphertext");
      for (const receiver of resources.filter((r) => kindOf(r) === "senlin:Receiver")) expect(receiver.outputs?.alarmUrl).toHaveProperty("ciphertext");
    });

    it("starts from a plane holding exactly the objects the state lists", () => {
      expect(seeded).toEqual(resources.flatMap((r) => objectsOf(kindOf(r) ?? "", r.id ?? "", r.outputs?.nodeIds)).sort());
    });

    it.each(resources.map((r) => [`${kindOf(r)} ${r.urn.split("::").at(-1)}`, r.urn, kindOf(r) ?? ""]))("previews %s with no change and no replacement", (_, urn, kind) => {
      const steps = resourceSteps(preview).filter((s) => s.urn === urn);
      // Where a later release renamed a field, the engine lists the recorded inputs' old name and the
      // checked inputs' new one (and the schema version) beside the provider's "no change".
      const renamed = changes.filter((c) => c.kind === kind).flatMap((c) => [c.state.pulumi.removed, ...Object.keys(c.state.pulumi.added), "__schemaVersion"]);
      expect(steps.map((s) => ({ op: s.op, diffs: s.diffs.filter((d) => !renamed.includes(d)), replaceKeys: s.replaceKeys }))).toEqual([{ op: "same", diffs: [], replaceKeys: [] }]);
    });

    it("previews no step that changes anything, and makes no platform call", () => {
      expect(changingSteps(preview)).toEqual([]);
      expect(previewCalls).toEqual([]);
    });

    const readsOldNames = changes.filter((c) => c.oldNameReads.includes(engine));

    if (readsOldNames.length > 0) it("previews no change either with the program written for this release, and warns of nothing", async () => {
      const programFile = path.join(programDir, PROGRAM_FILE[engine]);
      const recordedProgram = readFileSync(programFile, "utf8");
      writeFileSync(programFile, editedProgram(engine, fixture, recordedProgram));
      try {
        const since = await plane.lastSeq();
        const rewritten = await stack.preview();
        expect(changingSteps(rewritten)).toEqual([]);
        expect(await plane.audit(since)).toEqual([]);
        for (const change of readsOldNames) expect(rewritten.stdout).not.toContain(change.warning);
      } finally {
        writeFileSync(programFile, recordedProgram);
      }
    });

    it("refreshes every resource without changing its inputs or outputs (but as later releases store them), and writes nothing", async () => {
      const recordedNow = async () => Object.fromEntries(userResources(await stack.exportState()).map((r) => [r.urn, { inputs: r.inputs, outputs: r.outputs }]));
      const recordedBefore = await recordedNow();
      // The stored state reads as this release stores it: a field a release renamed under its new name, with the schema version.
      const kindOfUrn = Object.fromEntries(resources.map((r) => [r.urn, kindOf(r) ?? ""]));
      const before = Object.fromEntries(
        Object.entries(recordedBefore).map(([urn, r]) => [
          urn,
          { inputs: r.inputs, outputs: storedAfterChanges(fixture, kindOfUrn[urn], "pulumi", r.outputs, true) },
        ]),
      );
      const since = await plane.lastSeq();
      const refresh = await stack.refresh();
      // It read every platform (the audit window sees calls) and wrote to none.
      const calls = await plane.audit(since);
      expect(calls.length).toBeGreaterThan(0);
      expect(writes(calls)).toEqual([]);
      expect(
        resourceSteps(refresh)
          .filter((s) => kindOf(s) !== undefined)
          .map((s) => `${s.op} ${s.urn}${s.failed ? " failed" : ""}`)
          .sort(),
      ).toEqual(resources.map((r) => `refresh ${r.urn}`).sort());
      expect(await recordedNow()).toEqual(before);
      expect(await fixtureInventory(plane)).toEqual(seeded);
    });

    it("runs an up of the recorded program that changes nothing and makes no platform call, warning of each field read under an old name", async () => {
      const since = await plane.lastSeq();
      const up = await stack.up();
      expect(changingSteps(up)).toEqual([]);
      // No call of any kind, reads and Keystone's token requests included: an up with nothing to do asks no platform.
      expect(await plane.audit(since)).toEqual([]);
      for (const change of readsOldNames) {
        const holders = resources.filter((r) => kindOf(r) === change.kind);
        expect(holders.length).toBeGreaterThan(0);
        // Once per resource in the run's diagnostics (the CLI also shows it on the resource's row).
        const diagnostics = /Diagnostics:\n([\s\S]*?)\n(?:Outputs|Resources):/.exec(up.stdout)?.[1] ?? "";
        expect(diagnostics.split(change.warning).length - 1).toBe(holders.length);
      }
    });

    it("destroys every object the state lists, leaving the plane empty", async () => {
      const destroy = await stack.destroy();
      expect(
        resourceSteps(destroy)
          .filter((s) => !s.failed)
          .map((s) => `${s.op} ${s.urn}`)
          .sort(),
      ).toEqual(resources.map((r) => `delete ${r.urn}`).sort());
      expect(await fixtureInventory(plane)).toEqual([]);
      expect(userResources(await stack.exportState())).toEqual([]);
    });
  });
}

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { changingSteps, type EngineStack, openStack, resourceSteps } from "../harness/engine";
import { repoRoot, workDir } from "../harness/paths";
import { clusterformTarball, copyProgram, installWorkspace, packPackage } from "../harness/workspace";

const fixtureDir = path.join(repoRoot(), "test", "fixtures", "echo-package");

interface StateResource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The echo resources in the exported state: what the resource is, not the engine's bookkeeping. */
async function echoResources(stack: EngineStack): Promise<StateResource[]> {
  const state = await stack.exportState();
  const resources = (state.deployment.resources ?? []) as StateResource[];
  return resources
    .filter((r) => r.type === "pulumi-nodejs:dynamic/echo:Echo")
    .map(({ urn, type, inputs, outputs }) => ({ urn, type, inputs, outputs }));
}

/** A second release of the fixture: same shim, different implementation code. */
function packFixtureV2(): string {
  const dir = mkdtempSync(path.join(workDir(), "echo-v2-"));
  cpSync(fixtureDir, dir, { recursive: true });
  const impl = path.join(dir, "impl.js");
  writeFileSync(impl, readFileSync(impl, "utf8").replace("const IMPL_VERSION = 1;", "const IMPL_VERSION = 2;"));
  const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ ...pkg, version: "1.1.0" }));
  return packPackage(dir, "cf-echo-fixture-v2");
}

/**
 * A second release of clusterform, packed from another folder (tsc's output is the same bytes for
 * the same sources, so a copy of this build's dist stands for a second build), installed over the first.
 */
function packSecondBuild(): string {
  const dir = mkdtempSync(path.join(workDir(), "clusterform-build2-"));
  cpSync(path.join(repoRoot(), "package.json"), path.join(dir, "package.json"));
  cpSync(path.join(repoRoot(), "dist"), path.join(dir, "dist"), { recursive: true });
  return packPackage(dir, "clusterform-build2");
}

describe("the dynamic-provider pattern through the real engine", () => {
  let workspace: string;
  let stack: EngineStack;
  let store: string;
  let firstProvider: string;

  const records = () => JSON.parse(readFileSync(store, "utf8")) as Record<string, { message: string; writtenBy: number }>;

  beforeAll(async () => {
    workspace = installWorkspace("echo", {
      clusterform: clusterformTarball(),
      "cf-echo-fixture": packPackage(fixtureDir, "cf-echo-fixture"),
    });
    const program = copyProgram(workspace, "echo");
    store = path.join(program, "store.json");
    rmSync(store, { force: true });
    stack = await openStack({ programDir: program, config: { "cf-echo:store": { value: store } } });
  });

  it("creates both resources on up, through the implementation required at call time", async () => {
    const result = await stack.up();
    // The two are independent, so the engine creates them in either order.
    expect(changingSteps(result).map((s) => `${s.op} ${s.name}`).sort()).toEqual(["create first", "create second"]);
    expect(result.outputs).toEqual({ firstLength: 5, secondWrittenBy: 1 });
    expect(records()).toEqual({ first: { message: "hello", writtenBy: 1 }, second: { message: "world", writtenBy: 1 } });
  });

  it("stores a __provider of at most 4 KB that requires the implementation instead of embedding it", async () => {
    const resources = await echoResources(stack);
    expect(resources).toHaveLength(2);
    firstProvider = String(resources[0].outputs?.__provider);
    expect(Buffer.byteLength(firstProvider)).toBeLessThanOrEqual(4096);
    expect(firstProvider).toContain("cf-echo-fixture/impl");
    expect(firstProvider).not.toContain("IMPL_VERSION");
    expect(resources[1].outputs?.__provider).toBe(firstProvider);
  });

  it("previews nothing to do after up", async () => {
    const result = await stack.preview();
    expect(resourceSteps(result).map((s) => s.op)).toEqual(["same", "same"]);
  });

  it("refreshes without changing anything, then still previews nothing to do", async () => {
    const before = await echoResources(stack);
    const refreshed = await stack.refresh();
    expect(resourceSteps(refreshed).filter((s) => s.diffs.length > 0)).toEqual([]);
    expect(await echoResources(stack)).toEqual(before);
    expect(resourceSteps(await stack.preview()).map((s) => s.op)).toEqual(["same", "same"]);
  });

  it("shows no __provider churn when a new build and a new implementation are installed", async () => {
    installWorkspace("echo", { clusterform: packSecondBuild(), "cf-echo-fixture": packFixtureV2() });
    const preview = await stack.preview();
    expect(resourceSteps(preview).map((s) => s.op)).toEqual(["same", "same"]);

    await stack.setConfig("message", "changed");
    const result = await stack.up();
    expect(changingSteps(result).map((s) => [s.name, s.op, s.diffs])).toEqual([["first", "update", ["message"]]]);
    // The update ran the new implementation, yet the serialized shim is byte-identical.
    expect(records().first).toEqual({ message: "changed", writtenBy: 2 });
    const resources = await echoResources(stack);
    expect(resources.map((r) => r.inputs?.__provider)).toEqual([firstProvider, firstProvider]);
  });

  it("destroys everything and leaves nothing behind", async () => {
    const result = await stack.destroy();
    expect(changingSteps(result).map((s) => s.op).sort()).toEqual(["delete", "delete"]);
    expect(records()).toEqual({});
    expect(await echoResources(stack)).toEqual([]);
  });
});

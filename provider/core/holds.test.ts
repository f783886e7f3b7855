import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { EngineTraits, Holder } from "./engine";
import { fileHoldStore, type HoldStore, Holds, memoryHoldStore, runFileOf } from "./holds";

const PULUMI: EngineTraits = {
  replaceOrder: "program",
  deletesAfterDiffs: true,
  recordsStateAtEnd: false,
  sharedRun: true,
  recreateAdvice: "replace it deleting first",
  names: "pulumi",
};
const TOFU: EngineTraits = { ...PULUMI, replaceOrder: "engine", deletesAfterDiffs: false, recordsStateAtEnd: true, sharedRun: false };

const A: Holder = { key: "urn:a", label: "resource a" };
const B: Holder = { key: "urn:b", label: "resource b" };
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cf-holds-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Step = (h: Holds) => unknown;
const steps = {
  aMade: (h: Holds) => h.created(A, "k:T", "x", false),
  aAdopted: (h: Holds) => h.created(A, "k:T", "x", true),
  bAdopted: (h: Holds) => h.created(B, "k:T", "x", true),
  bMade: (h: Holds) => h.created(B, "k:T", "x", false),
  aLive: (h: Holds) => h.diffed(A, "k:T", "x", false),
  bLive: (h: Holds) => h.diffed(B, "k:T", "x", false),
  aReplaced: (h: Holds) => h.diffed(A, "k:T", "x", true),
  aNew: (h: Holds) => h.checkedAsNew(A),
  aDeleted: (h: Holds) => h.deleted("k:T", "x"),
} satisfies Record<string, Step>;

describe("which entry's delete of object x runs", () => {
  it.each<[string, (keyof typeof steps)[], EngineTraits, boolean]>([
    ["nothing recorded: it runs", [], PULUMI, true],
    ["made by the deleting entry in this run: it runs", ["aMade"], PULUMI, true],
    ["adopted by the deleting entry (a create-first replacement of the same identity): kept", ["aAdopted"], PULUMI, false],
    ["diffed live and unchanged by the deleting entry (a condemned copy): kept", ["aLive"], PULUMI, false],
    ["diffed live, then checked as new (the engine replaces it after all): it runs", ["aLive", "aNew"], PULUMI, true],
    ["diffed live, then a replacement planned: it runs", ["aLive", "aReplaced"], PULUMI, true],
    ["adopted by another entry (a resource whose type changed): kept", ["bAdopted"], PULUMI, false],
    ["made by another entry (two resources of one name): kept", ["bMade"], PULUMI, false],
    ["diffed live by another entry: kept", ["bLive"], PULUMI, false],
    ["its delete already ran: a second delete runs", ["bAdopted", "aDeleted"], PULUMI, true],
    ["an engine that deletes before diffing everything records no live object: it runs", ["aLive"], TOFU, true],
    ["an engine that deletes before diffing everything, adopted by another entry: kept", ["bAdopted"], TOFU, false],
  ])("%s", (_, done, engine, runs) => {
    const holds = new Holds(engine, memoryHoldStore());
    for (const step of done) steps[step](holds);
    const reason = holds.reasonToKeep(A, "k:T", "x");
    expect(reason === undefined).toBe(runs);
    expect(holds.reasonToKeep(A, "k:T", "y")).toBeUndefined();
    expect(holds.reasonToKeep(A, "other:Kind", "x")).toBeUndefined();
  });

  it("names the holder, the kind and what it did when another entry holds the object", () => {
    const holds = new Holds(PULUMI, memoryHoldStore());
    holds.created(B, "k:T", "x", true);
    expect(holds.reasonToKeep(A, "k:T", "x")).toBe(
      'kept "x" (k:T): resource b holds it (it adopted it in this run), so deleting it for resource a would delete what that resource holds; only resource a is dropped from the state',
    );
  });
});

describe("adopting an object another entry holds", () => {
  it("fails before any write, naming the object, the holder and how to resolve it", () => {
    const holds = new Holds(PULUMI, memoryHoldStore());
    holds.created(B, "k:T", "x", false);
    expect(() => holds.beforeAdopting(A, "k:T", "x", 'CreateThing "x"')).toThrow(
      'CreateThing "x": HELD: k:T "x" is held by another resource of this run, resource b, which created it; nothing was changed. Two resources derive the same platform name or id',
    );
  });

  it("is allowed for the entry that holds it, and for an object nobody holds", () => {
    const holds = new Holds(PULUMI, memoryHoldStore());
    holds.diffed(A, "k:T", "x", false);
    expect(() => holds.beforeAdopting(A, "k:T", "x", "op")).not.toThrow();
    expect(() => holds.beforeAdopting(B, "k:T", "y", "op")).not.toThrow();
  });

  it("warns once two entries diff the same live object, and keeps both entries' deletes", () => {
    const holds = new Holds(PULUMI, memoryHoldStore());
    expect(holds.diffed(A, "k:T", "x", false)).toBeUndefined();
    expect(holds.diffed(B, "k:T", "x", false)).toMatch(/^k:T "x" is held by two resources of this stack: resource a and resource b; neither is deleted in this run/);
    expect(holds.reasonToKeep(A, "k:T", "x")).toBeDefined();
    expect(holds.reasonToKeep(B, "k:T", "x")).toBeDefined();
  });
});

describe("the run file shared by the provider processes of one run", () => {
  it("lets a store see what another store on the same file recorded, in order", () => {
    const file = path.join(tempDir(), "run.jsonl");
    const plugin: HoldStore = fileHoldStore(file);
    const dynamic: HoldStore = fileHoldStore(file);
    plugin.put({ kind: "k:T", id: "x", holder: "urn:b", label: "b", how: "adopted" });
    expect(dynamic.find("k:T", "x")).toEqual({ kind: "k:T", id: "x", holder: "urn:b", label: "b", how: "adopted" });
    dynamic.put({ kind: "k:T", id: "y", holder: "urn:a", label: "a", how: "live" });
    plugin.dropLive("urn:a");
    expect(dynamic.find("k:T", "y")).toBeUndefined();
    plugin.drop("k:T", "x");
    expect(dynamic.find("k:T", "x")).toBeUndefined();
    expect(new Holds(PULUMI, fileHoldStore(file)).reasonToKeep(A, "k:T", "x")).toBeUndefined();
  });

  it("is named after the nearest ancestor running the engine's command, and is none without one", () => {
    const dir = tempDir();
    // The test command runs vitest from bash: this process's ancestors hold a `bash`.
    const file = runFileOf("bash", dir, process.pid);
    expect(file).toMatch(new RegExp(`^${dir}/clusterform-run-\\d+-\\d+\\.jsonl$`));
    expect(runFileOf("no-such-engine", dir, process.pid)).toBeUndefined();
  });

  it("removes the files of runs whose engine process has ended", () => {
    const dir = tempDir();
    const ended = path.join(dir, "clusterform-run-999999999-1.jsonl");
    const unrelated = path.join(dir, "notes.jsonl");
    writeFileSync(ended, "");
    writeFileSync(unrelated, "");
    expect(runFileOf("bash", dir, process.pid)).toBeDefined();
    expect([existsSync(ended), existsSync(unrelated)]).toEqual([false, true]);
  });
});

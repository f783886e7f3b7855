import { mkdtempSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { dynamicMethods } from "../engines/dynamic/provider";
import { DYNAMIC_ENGINE } from "../engines/dynamic/engine";
import { PartialStateError, type ResourceOperations, SILENT, withPartialState } from "./contract";
import type { Kind } from "./definition/kind";
import { NATIVE_ENGINE } from "../engines/pulumi-native/engine";
import { fileHoldStore, Holds, memoryHoldStore } from "./holds";
import { COMMON_IGNORED, type DiffPlan } from "./planner";
import { op } from "./plan/operation";
import { createCore } from "./runtime";

type Props = Record<string, unknown>;
interface WidgetInputs {
  resourceName?: string;
  name: string;
  size: number;
  color?: string;
  owner?: string;
  timeouts?: string;
}

/** The parts of a kind the core reads, for a made-up kind. */
interface WidgetKind extends Pick<Kind, "type" | "policies" | "identity" | "planner" | "checkChange" | "replaceOrder"> {
  schema: z.ZodType<WidgetInputs, unknown>;
  complete?(olds: Props, news: WidgetInputs & Props): Props;
  operations: ResourceOperations<WidgetInputs>;
}

/** A made-up resource kind: `name` and `color` replace, `size` changes in place by `Resize`; the name is its identity. */
function widget(overrides: Partial<WidgetKind> = {}) {
  const calls: { op: string; args: unknown[] }[] = [];
  const record = (op: string, ...args: unknown[]) => calls.push({ op, args });
  const live = new Map<string, Props>();
  const def: WidgetKind = {
    type: "test:Widget",
    schema: z
      .object({ name: z.string(), size: z.number(), color: z.string().optional(), owner: z.string().optional(), resourceName: z.string().optional(), timeouts: z.string().optional() })
      .strict(),
    policies: {
      ...COMMON_IGNORED,
      owner: { kind: "ignore" },
      name: { kind: "replace" },
      color: { kind: "replace" },
      size: { kind: "update", operation: "Resize" },
    },
    identity: (inputs) => (typeof inputs.name === "string" ? inputs.name : undefined),
    planner: {
      update: (_olds, news, diff, id) => (diff.updates.length > 0 ? [op("Resize", id, { size: news.size }, `resizes to ${news.size}`)] : []),
      create: () => [],
      delete: () => [],
    },
    operations: {
      async create(ctx, inputs) {
        record("create", ctx.config.get("widget:endpoint"), inputs);
        // A widget of this name exists already: the core decides whether it may be adopted.
        if (live.has(`w-${inputs.name}`)) ctx.confirmAdoption(`CreateWidget ${inputs.name}`, { identity: inputs.name, id: `w-${inputs.name}` });
        return { id: `w-${inputs.name}`, outs: { state: "READY", size: 0 } };
      },
      async read(ctx, id, props) {
        record("read", ctx.config.get("widget:endpoint"), id, props);
        return live.get(id);
      },
      async update(ctx, id, olds, news, plan) {
        record("update", ctx.config.get("widget:endpoint"), id, olds, news, plan);
        return { state: "RESIZED" };
      },
      async delete(ctx, id, props) {
        record("delete", ctx.config.get("widget:endpoint"), id, props);
      },
    },
    ...overrides,
  };
  const kind = { ...def, allInputs: {}, outputs: {}, operations: async () => def.operations } as unknown as Kind;
  const core = createCore({ engine: DYNAMIC_ENGINE, holds: new Holds(DYNAMIC_ENGINE, memoryHoldStore()), reporterFor: () => SILENT });
  return { handler: dynamicMethods(core, async () => kind), calls, live, kind };
}

const P = "provider-source";

describe("the core, as the dynamic provider serves it: check", () => {
  it.each<[string, Props]>([
    ["keeps deleteBeforeReplace true", { deleteBeforeReplace: true }],
    ["keeps deleteBeforeReplace false", { deleteBeforeReplace: false }],
    ["leaves deleteBeforeReplace out when the program sent none", {}],
    ["keeps the resource's URN", { resourceUrn: "urn:pulumi:dev::app::pulumi-nodejs:dynamic/widget::w" }],
  ])("%s, outside the resource's own schema", async (_, order) => {
    const { handler } = widget();
    expect(await handler.check({}, { __provider: P, name: "a", size: 1, ...order })).toEqual({
      inputs: { name: "a", size: 1, ...order, __provider: P },
      failures: [],
    });
  });

  it("rejects a deleteBeforeReplace that is not a boolean, with the other failures", async () => {
    const { handler } = widget();
    expect((await handler.check({}, { __provider: P, name: 1, size: 1, deleteBeforeReplace: "yes" })).failures).toEqual([
      { property: "deleteBeforeReplace", reason: 'deleteBeforeReplace must be a boolean, got "yes"' },
      { property: "name", reason: "name must be a string, got 1" },
    ]);
  });

  it("returns the validated inputs with __provider kept and no failures", async () => {
    const { handler } = widget();
    expect(await handler.check({}, { __provider: P, name: "a", size: 1 })).toEqual({
      inputs: { name: "a", size: 1, __provider: P },
      failures: [],
    });
  });

  it("returns the inputs as sent, with the failures, and runs no completion when validation fails", async () => {
    const complete = vi.fn((_olds: Props, news: WidgetInputs & Props) => news);
    const checkChange = vi.fn(() => []);
    const { handler } = widget({ complete, checkChange });
    const news = { __provider: P, name: 1, size: "big" };
    expect(await handler.check({ name: "a", size: 1 }, news)).toEqual({
      inputs: news,
      failures: [
        { property: "name", reason: "name must be a string, got 1" },
        { property: "size", reason: 'size must be a number, got "big"' },
      ],
    });
    expect([complete.mock.calls.length, checkChange.mock.calls.length]).toEqual([0, 0]);
  });

  it("fills derived inputs from the old and validated new inputs", async () => {
    const complete = vi.fn((olds: Props, news: WidgetInputs & Props) => ({ ...news, name: `${news.name}-${String(olds.size ?? "new")}` }));
    const { handler } = widget({ complete });
    expect((await handler.check({ size: 3 }, { __provider: P, name: "a", size: 4 })).inputs).toEqual({ name: "a-3", size: 4, __provider: P });
    expect(complete.mock.calls.map((call) => call.slice(0, 2))).toEqual([[{ size: 3 }, { name: "a", size: 4 }]]);
  });

  it.each<[string, Props, number]>([
    ["skips change checks on create (no old inputs)", {}, 0],
    ["runs change checks on update", { name: "a", size: 9 }, 1],
  ])("%s", async (_, olds, runs) => {
    const failure = { property: "size", reason: "size cannot shrink" };
    const checkChange = vi.fn(() => [failure]);
    const { handler } = widget({ checkChange });
    const result = await handler.check(olds, { __provider: P, name: "a", size: 1 });
    expect([checkChange.mock.calls.length, result.failures]).toEqual([runs, runs ? [failure] : []]);
  });
});

describe("the core, as the dynamic provider serves it: diff", () => {
  const olds = { __provider: P, name: "a", size: 1, state: "READY", id: "w-a" };
  const NO_CHANGE = { changes: false, replaces: [], deleteBeforeReplace: false };

  it.each<[string, Props, object]>([
    ["plans nothing when only ignored fields change", { __provider: "other", name: "a", size: 1, timeouts: "5m" }, NO_CHANGE],
    ["plans nothing when only the replacement order changes", { __provider: P, name: "a", size: 1, deleteBeforeReplace: false }, NO_CHANGE],
    ["changes in place without replacement", { __provider: P, name: "a", size: 2 }, { changes: true, replaces: [], deleteBeforeReplace: false }],
    ["replaces deleting first by default", { __provider: P, name: "b", size: 1 }, { changes: true, replaces: ["name"], deleteBeforeReplace: true }],
    [
      "replaces deleting first when the program says so",
      { __provider: P, name: "a", size: 1, color: "red", deleteBeforeReplace: true },
      { changes: true, replaces: ["color"], deleteBeforeReplace: true },
    ],
    [
      "replaces creating first when the program opts in and the identity changes",
      { __provider: P, name: "b", size: 1, deleteBeforeReplace: false },
      { changes: true, replaces: ["name"], deleteBeforeReplace: false },
    ],
  ])("%s", async (_, news, expected) => {
    const { handler, calls } = widget();
    expect(await handler.diff("w-a", olds, news)).toEqual(expected);
    expect(calls).toEqual([]);
  });

  it("refuses, at preview, a create-first replacement that keeps the identity, saying how to replace", async () => {
    const { handler, calls } = widget();
    await expect(handler.diff("w-a", olds, { __provider: P, name: "a", size: 1, color: "red", deleteBeforeReplace: false })).rejects.toThrow(
      'planning the replacement of "a" (changed: color): REPLACEMENT_CLASH: the new object would have the same identity as the old one, ' +
        "and with deleteBeforeReplace: false the new one would be created first, which the platform refuses; remove " +
        "`deleteBeforeReplace: false` (the default deletes the old object first) or give the new object another name",
    );
    expect(calls).toEqual([]);
  });
});

describe("the core, as the dynamic provider serves it: adoption by create", () => {
  const refused = /"a" already exists, and with deleteBeforeReplace: false Clusterform cannot tell whether it is the object this run replaces/;

  it.each<[string, Props]>([
    ["the default order (state written before the option existed)", {}],
    ["delete-first, as the SDK sends by default", { deleteBeforeReplace: true }],
  ])("adopts a found object with %s: the old object is gone before create runs", async (_, order) => {
    const { handler, live } = widget();
    live.set("w-a", { state: "READY" });
    expect((await handler.create({ __provider: P, name: "a", size: 1, owner: "o1", ...order })).id).toBe("w-a");
  });

  it("refuses a found object create-first when nothing shows which object is being replaced (`up --replace`)", async () => {
    const { handler, live } = widget();
    live.set("w-a", { state: "READY" });
    await expect(handler.create({ __provider: P, name: "a", size: 1, owner: "o1", deleteBeforeReplace: false })).rejects.toThrow(refused);
  });

  it("refuses create-first when the found object is the one whose old inputs check saw", async () => {
    const { handler, live } = widget();
    live.set("w-a", { state: "READY" });
    await handler.check({ name: "a", size: 1, owner: "o1" }, { __provider: P, name: "a", size: 1, color: "red", owner: "o1", deleteBeforeReplace: false });
    await expect(handler.create({ __provider: P, name: "a", size: 1, color: "red", owner: "o1", deleteBeforeReplace: false })).rejects.toThrow(refused);
  });

  it("adopts create-first what an interrupted run created under the replacement's new identity", async () => {
    const { handler, live } = widget();
    live.set("w-b", { state: "READY" });
    await handler.check({ name: "a", size: 1, owner: "o1" }, { __provider: P, name: "b", size: 1, owner: "o1", deleteBeforeReplace: false });
    expect((await handler.create({ __provider: P, name: "b", size: 1, owner: "o1", deleteBeforeReplace: false })).id).toBe("w-b");
  });

  it("does not let one resource's old identity vouch for another's", async () => {
    const { handler, live } = widget();
    live.set("w-b", { state: "READY" });
    await handler.check({ name: "a", size: 1, owner: "o1" }, { __provider: P, name: "b", size: 1, owner: "o1", deleteBeforeReplace: false });
    await expect(handler.create({ __provider: P, name: "b", size: 1, owner: "o2", deleteBeforeReplace: false })).rejects.toThrow(
      /"b" already exists/,
    );
  });
});

describe("the core, as the dynamic provider serves it: create, read, update, delete", () => {
  it("runs operations with the configuration given to configure, read at call time", async () => {
    const { handler, calls } = widget();
    await handler.configure({ get: (k) => (k === "widget:endpoint" ? "http://one" : undefined) });
    await handler.delete("w-a", { name: "a" });
    await handler.configure({ get: (k) => (k === "widget:endpoint" ? "http://two" : undefined) });
    await handler.delete("w-a", { name: "a" });
    expect(calls.map((c) => c.args[0])).toEqual(["http://one", "http://two"]);
  });

  it("returns the inputs and the outputs of create, outputs winning", async () => {
    const { handler } = widget();
    expect(await handler.create({ __provider: P, name: "a", size: 2 })).toEqual({
      id: "w-a",
      outs: { __provider: P, name: "a", size: 0, state: "READY" },
    });
  });

  it("merges what read found over the old state", async () => {
    const { handler, live } = widget();
    live.set("w-a", { state: "DEGRADED" });
    expect(await handler.read("w-a", { __provider: P, name: "a", size: 2, state: "READY" })).toEqual({
      id: "w-a",
      props: { __provider: P, name: "a", size: 2, state: "DEGRADED" },
    });
  });

  it("removes a field read answers undefined from the state (an input back at its default)", async () => {
    const { handler, live } = widget();
    live.set("w-a", { state: undefined });
    const { props } = await handler.read("w-a", { __provider: P, name: "a", size: 2, state: "READY" });
    expect(Object.keys(props).sort()).toEqual(["__provider", "name", "size"]);
  });

  it("answers a blank id and no properties when read finds the object gone", async () => {
    const { handler } = widget();
    expect(await handler.read("w-a", { __provider: P, name: "a", size: 2 })).toEqual({ id: "", props: {} });
  });

  it("hands update the planner's operations for the object, with the diff, and returns the news with its outputs", async () => {
    const { handler, calls } = widget();
    const olds = { __provider: P, name: "a", size: 1, state: "READY" };
    const news = { __provider: P, name: "a", size: 5 };
    expect(await handler.update("w-a", olds, news)).toEqual({ outs: { ...news, state: "RESIZED" } });
    const diff: DiffPlan = { changes: true, replaces: [], updates: [{ field: "size", operation: "Resize" }], records: [], stables: ["name", "color"] };
    const operations = [{ call: "Resize", target: "w-a", args: { size: 5 }, summary: "resizes to 5" }];
    // The operations get the kind's own inputs and state: the SDK's `__provider` text stays the adapter's.
    const { __provider: _o, ...oldState } = olds;
    const { __provider: _n, ...newInputs } = news;
    expect(calls).toEqual([{ op: "update", args: [undefined, "w-a", oldState, newInputs, { diff, operations }] }]);
  });

  it("hands delete the id and the state", async () => {
    const { handler, calls } = widget();
    await handler.delete("w-a", { name: "a", state: "READY" });
    expect(calls).toEqual([{ op: "delete", args: [undefined, "w-a", { name: "a", state: "READY" }] }]);
  });
});

describe("withPartialState", () => {
  it.each<[string, unknown, string]>([
    ["an Error", new Error("cluster is in ERROR"), "cluster is in ERROR"],
    ["a string", "boom", "boom"],
  ])("records the object with its properties when %s is thrown", (_, err, message) => {
    const wrapped = withPartialState(err, "w-a", { __provider: P, name: "a" });
    expect(wrapped).toBeInstanceOf(PartialStateError);
    expect({ ...(wrapped as PartialStateError), message: (wrapped as Error).message }).toEqual({
      id: "w-a",
      properties: { __provider: P, name: "a" },
      reasons: [message],
      message,
    });
  });

  it("passes a partial-state error through unchanged", () => {
    const err = new PartialStateError("x", "w-b", { name: "b" }, ["x"]);
    expect(withPartialState(err, "w-a", {})).toBe(err);
  });
});

describe("the core, as the dynamic provider serves it: a delete of the object the state keeps does not run", () => {
  const owned = { name: "a", size: 1, owner: "o1" };
  type Widget = ReturnType<typeof widget>;
  type Step = (w: Widget) => Promise<unknown>;
  // `pulumi up --replace` creates first with no old inputs: create finds the object and adopts it.
  const adopt: Step = async (w) => {
    w.live.set("w-a", { state: "READY" });
    return w.handler.create({ ...owned });
  };
  const create: Step = (w) => w.handler.create({ ...owned });
  const checkNew: Step = (w) => w.handler.check({}, { ...owned });
  const diffSame: Step = (w) => w.handler.diff("w-a", { ...owned }, { ...owned, size: 2 });
  const diffReplace: Step = (w) => w.handler.diff("w-a", { ...owned }, { ...owned, color: "red" });

  it.each<[string, Step[], string, boolean]>([
    ["this process's create adopted the object (a create-first replacement of the same identity)", [adopt], "w-a", false],
    ["the live state's diff named the id and replaced nothing (a condemned copy from an interrupted run)", [diffSame], "w-a", false],
    ["nothing in this process named the id", [], "w-a", true],
    ["this process's create made the object rather than finding it", [create], "w-a", true],
    ["the diff planned a replacement", [diffSame, diffReplace], "w-a", true],
    ["a check without old inputs followed the diff (the engine replaces it after all)", [diffSame, checkNew], "w-a", true],
    ["another id than the one adopted", [adopt], "w-b", true],
  ])("keeps it only when %s", async (_, steps, id, deleted) => {
    const w = widget();
    for (const step of steps) await step(w);
    await w.handler.delete(id, { ...owned });
    expect(w.calls.filter((c) => c.op === "delete").map((c) => c.args[1])).toEqual(deleted ? [id] : []);
  });
});

describe("the core: a held object survives every engine and process combination", () => {
  const nativeUrn = "urn:pulumi:dev::app::clusterform:test:Widget::w";
  const dynamicUrn = "urn:pulumi:dev::app::pulumi-nodejs:dynamic/test:Widget::w";

  it("keeps the object a native create adopted from the dynamic provider's delete of the old type's entry, in another process", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "cf-run-")), "run.jsonl");
    const w = widget();
    w.live.set("w-a", { state: "READY" });
    const nativeCore = createCore({ engine: NATIVE_ENGINE, holds: new Holds(NATIVE_ENGINE, fileHoldStore(file)), reporterFor: () => SILENT });
    const dynamicProcess = dynamicMethods(
      createCore({ engine: DYNAMIC_ENGINE, holds: new Holds(DYNAMIC_ENGINE, fileHoldStore(file)), reporterFor: () => SILENT }),
      async () => w.kind,
    );
    const made = await nativeCore.create(w.kind, { holder: { key: nativeUrn, label: nativeUrn }, inputs: { name: "a", size: 1, owner: "o1" } });
    expect(made.id).toBe("w-a");
    expect(await dynamicProcess.delete("w-a", { __provider: P, name: "a", size: 1, owner: "o1", resourceUrn: dynamicUrn })).toEqual({
      kept: expect.stringContaining(`kept "w-a" (test:Widget): ${nativeUrn} holds it (it adopted it in this run)`),
    });
    expect(w.calls.filter((c) => c.op === "delete")).toEqual([]);
  });

  it("refuses, before any write, a second resource's adoption of what another resource of the run created under the same derived name", async () => {
    const w = widget();
    const core = createCore({ engine: NATIVE_ENGINE, holds: new Holds(NATIVE_ENGINE, memoryHoldStore()), reporterFor: () => SILENT });
    await core.create(w.kind, { holder: { key: "urn:one", label: "urn:one" }, inputs: { name: "a", size: 1, owner: "o1" } });
    w.live.set("w-a", { state: "READY" });
    const writes = w.calls.length;
    await expect(core.create(w.kind, { holder: { key: "urn:two", label: "urn:two" }, inputs: { name: "a", size: 1, owner: "o1" } })).rejects.toThrow(
      'CreateWidget a: HELD: test:Widget "w-a" is held by another resource of this run, urn:one, which created it; nothing was changed',
    );
    expect(w.calls.length).toBe(writes + 1); // the second create looked, and wrote nothing
  });

  it("answers the native plugin's replacement order from the identities: create-first only when the new object gets another one", async () => {
    const w = widget();
    const core = createCore({ engine: NATIVE_ENGINE, holds: new Holds(NATIVE_ENGINE, memoryHoldStore()), reporterFor: () => SILENT });
    const holder = { key: nativeUrn, label: nativeUrn };
    const olds = { name: "a", size: 1, owner: "o1" };
    expect(await core.diff(w.kind, { holder, id: "w-a", olds, news: { ...olds, name: "b" } })).toMatchObject({ replaces: ["name"], deleteFirst: false });
    expect(await core.diff(w.kind, { holder, id: "w-a", olds, news: { ...olds, color: "red" } })).toMatchObject({ replaces: ["color"], deleteFirst: true });
  });
});

describe("the core: an import holds what it imported", () => {
  it("keeps the imported object from another entry's delete in the same run, and refuses to import what another entry holds", async () => {
    const w = widget();
    const kind = { ...w.kind, importId: { shape: "`w-` and a name", example: "w-a" }, importer: async () => ({ platform: "cmassh", idPattern: /^w-/, read: async () => ({ inputs: { name: "a", size: 1 }, outputs: {} }) }) } as Kind;
    const core = createCore({ engine: NATIVE_ENGINE, holds: new Holds(NATIVE_ENGINE, memoryHoldStore()), reporterFor: () => SILENT });
    const importer = { key: "urn:b", label: "urn:b" };
    await core.import(kind, { id: "w-a", identity: { owner: "o2", resourceName: "b" }, holder: importer });
    expect(await core.delete(kind, { holder: { key: "urn:a", label: "urn:a" }, id: "w-a", state: { name: "a", size: 1 } })).toEqual({ kept: expect.stringContaining("urn:b holds it") });
    await expect(core.import(kind, { id: "w-a", identity: { owner: "o3", resourceName: "c" }, holder: { key: "urn:c", label: "urn:c" } })).rejects.toThrow(/HELD: urn:b adopted that object in this run/);
    expect(w.calls.filter((c) => c.op === "delete")).toEqual([]);
  });
});

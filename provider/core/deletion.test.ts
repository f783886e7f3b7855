import { describe, expect, it } from "vitest";
import { DYNAMIC_ENGINE } from "../engines/dynamic/engine";
import { TERRAFORM_ENGINE } from "../engines/terraform/engine";
import type { Props, Reporter, ResourceOperations } from "./contract";
import type { Kind } from "./definition/kind";
import type { EngineTraits } from "./engine";
import { Holds, memoryHoldStore } from "./holds";
import { op } from "./plan/operation";
import { COMMON_IGNORED } from "./planner";
import { createCore } from "./runtime";

const HOLDER = { key: "urn:test::w", label: "w" };

/** A made-up kind with a deletion policy: `name` replaces, `size` changes in place by Resize; every platform call recorded. */
function setUp(engine: EngineTraits = DYNAMIC_ENGINE) {
  const calls: string[] = [];
  const warnings: string[] = [];
  const operations: ResourceOperations<Props> = {
    async create() {
      calls.push("create");
      return { id: "w-a", outs: { state: "READY" } };
    },
    async read() {
      calls.push("read");
      return undefined;
    },
    async update() {
      calls.push("update");
      return { state: "RESIZED" };
    },
    async delete() {
      calls.push("delete");
    },
  };
  const kind = {
    type: "test:Widget",
    policies: { ...COMMON_IGNORED, name: { kind: "replace" }, size: { kind: "update", operation: "Resize" }, deletionPolicy: { kind: "record" } },
    identity: (inputs: Props) => inputs.name as string,
    planner: {
      update: (_olds: Props, news: Props, diff: { updates: unknown[] }, id: string) => (diff.updates.length > 0 ? [op("Resize", id, { size: news.size }, "resizes")] : []),
      create: () => [],
      delete: () => [],
    },
    allInputs: {},
    outputs: {},
    operations: async () => operations,
  } as unknown as Kind;
  const reporter: Reporter = {
    progress: async () => undefined,
    note: async () => undefined,
    warn: async (message) => {
      warnings.push(message);
    },
  };
  const holds = new Holds(engine, memoryHoldStore());
  const core = createCore({ engine, holds, reporterFor: () => reporter });
  return { core, kind, calls, warnings, holds };
}

const state = (deletionPolicy?: string): Props => ({ name: "a", size: 1, state: "READY", ...(deletionPolicy ? { deletionPolicy } : {}) });

describe("deletionPolicy (core/deletion.ts): decided by the core for every engine", () => {
  it("refuses a replacement of a protected or abandoned object at diff, naming the kind, the object, the change and how to turn it off", async () => {
    for (const policy of ["protect", "abandon"]) {
      const { core, kind, calls } = setUp();
      const diff = core.diff(kind, { holder: HOLDER, id: "w-a", olds: state(policy), news: { name: "b", size: 1, deletionPolicy: policy } });
      await expect(diff).rejects.toThrow(
        `planning the replacement of test:Widget "w-a" (changed: name): DELETION_PROTECTED: its deletionPolicy is "${policy}" and a replacement deletes the old object; ` +
          'nothing was sent to the platform. To replace it, set deletionPolicy to "delete" and apply that change first, or undo the change of name',
      );
      expect(calls).toEqual([]);
    }
  });

  it("plans a replacement as before when the policy is delete or absent (state written before the field existed)", async () => {
    for (const olds of [state("delete"), state()]) {
      const { core, kind } = setUp();
      const outcome = await core.diff(kind, { holder: HOLDER, id: "w-a", olds, news: { name: "b", size: 1 } });
      expect(outcome.replaces).toEqual(["name"]);
    }
  });

  it("plans a change of the policy alone as an update that lists no platform call, and records it in the state", async () => {
    const { core, kind, calls } = setUp();
    const news = { name: "a", size: 1, deletionPolicy: "protect" };
    const outcome = await core.diff(kind, { holder: HOLDER, id: "w-a", olds: state(), news });
    expect(outcome).toMatchObject({ changes: true, replaces: [], operations: [] });
    // The kind's update runs with nothing to send (it may still converge: wait for a state, read it).
    const updated = await core.update(kind, { holder: HOLDER, id: "w-a", olds: state(), news });
    expect(updated.state).toEqual({ name: "a", size: 1, state: "RESIZED", deletionPolicy: "protect" });
    expect(calls).toEqual(["update"]);
  });

  it("carries out a real change together with the policy as before: one update call", async () => {
    const { core, kind, calls } = setUp();
    const updated = await core.update(kind, { holder: HOLDER, id: "w-a", olds: state("protect"), news: { name: "a", size: 3, deletionPolicy: "delete" } });
    expect(calls).toEqual(["update"]);
    expect(updated.state).toMatchObject({ size: 3, deletionPolicy: "delete", state: "RESIZED" });
  });

  it("refuses to delete a protected object, at planDelete and at delete, with no platform call", async () => {
    const { core, kind, calls } = setUp();
    const message =
      'deleting test:Widget "w-a": DELETION_PROTECTED: its deletionPolicy is "protect", so it was not deleted and nothing was sent to the platform; ' +
      'to delete it, set deletionPolicy to "delete" (or "abandon", to leave the object on the platform and forget it) and apply that change first';
    await expect(core.planDelete(kind, { id: "w-a", state: state("protect") })).rejects.toThrow(message);
    await expect(core.delete(kind, { holder: HOLDER, id: "w-a", state: state("protect") })).rejects.toThrow(message);
    expect(calls).toEqual([]);
  });

  it("forgets an abandoned object without a platform call, warning on the resource", async () => {
    const { core, kind, calls, warnings } = setUp();
    await expect(core.planDelete(kind, { id: "w-a", state: state("abandon") })).resolves.toBeUndefined();
    expect(await core.delete(kind, { holder: HOLDER, id: "w-a", state: state("abandon") })).toEqual({ abandoned: true });
    expect(calls).toEqual([]);
    expect(warnings).toEqual(['left test:Widget "w-a" on the platform and forgot it (deletionPolicy "abandon"): nothing was deleted']);
  });

  it("keeps, rather than refuses, a protected object that another state entry holds (a stack moved between declarations)", async () => {
    const { core, kind, calls, holds } = setUp();
    // Another entry of the run adopted the object (holds.ts): this entry's delete deletes nothing.
    holds.created({ key: "urn:test::other", label: "other" }, kind.type, "w-a", true);
    const deleted = await core.delete(kind, { holder: HOLDER, id: "w-a", state: state("protect") });
    expect(deleted.kept).toEqual(expect.any(String));
    expect(calls).toEqual([]);
  });

  it("deletes as before when the policy is delete or absent", async () => {
    for (const s of [state("delete"), state()]) {
      const { core, kind, calls } = setUp();
      expect(await core.delete(kind, { holder: HOLDER, id: "w-a", state: s })).toEqual({});
      expect(calls).toEqual(["delete"]);
    }
  });

  it("names the input as OpenTofu users write it (deletion_policy) on that engine", async () => {
    const { core, kind } = setUp(TERRAFORM_ENGINE);
    await expect(core.planDelete(kind, { id: "w-a", state: state("protect") })).rejects.toThrow('its deletion_policy is "protect"');
    await expect(core.diff(kind, { holder: HOLDER, id: "w-a", olds: state("protect"), news: { name: "b", size: 1 } })).rejects.toThrow(
      'set deletion_policy to "delete"',
    );
  });
});

import { expect } from "vitest";
import { loadKinds } from "../../cli/plan/planners";
import { planChange } from "../../cli/plan/plan-change";
import { SILENT } from "../../core/contract";
import type { Kind } from "../../core/definition/kind";
import { Holds, memoryHoldStore } from "../../core/holds";
import { ownerMarker } from "../../core/naming";
import { createCore } from "../../core/runtime";
import { type KindType, kindOf } from "../../kinds";
import { type AdapterPlane, type Applied, type DrivenResource, type EngineDriver, InOrder, type Previewed, type Program, pulumiReplaceOrder, type StateEntry } from "../testing";
import { DYNAMIC_ENGINE } from "./engine";
import { type DynamicMethods, dynamicMethods } from "./provider";

/*
 * The dynamic provider's methods called as Pulumi's dynamic provider host calls them (test helper,
 * not built into the package): one run of the engine after another, each a fresh provider process
 * (its own core and held objects), with the hidden inputs the SDK sends, and the engine's state of
 * the resource kept between runs.
 */

type Props = Record<string, unknown>;

/** A kind's resource in a stack: what the SDK sends for it, and the engine's state of it. */
export class DynamicResource implements DrivenResource {
  readonly engine = "dynamic";
  readonly urn: string;
  /** The program's inputs now (definition keys). */
  program: Props = {};
  entry: StateEntry | undefined;
  /** The steps of this resource's life, in order beside other resources' (lifecycle tests). */
  readonly steps = new InOrder();
  private kind: Kind | undefined;

  constructor(
    readonly type: KindType,
    readonly name: string,
    readonly stack: string,
    private readonly planeOf: () => AdapterPlane,
    readonly project = "inproc",
  ) {
    this.urn = `urn:pulumi:${stack}::${project}::pulumi-nodejs:dynamic/${type}::${name}`;
  }

  /** What the SDK sends (sdk/internal/identity.ts, resource.ts): the program's inputs and the hidden ones. */
  sdk(deleteBeforeReplace = true): Props {
    return {
      ...this.program,
      __provider: `exports.handler = () => require("clusterform/provider").dynamicProvider(${JSON.stringify(this.type)});`,
      owner: ownerMarker(this.project, this.stack, this.name),
      resourceName: this.name,
      deleteBeforeReplace,
      resourceUrn: this.urn,
    };
  }

  get plane(): AdapterPlane {
    return this.planeOf();
  }

  /** The provider of one engine run: a process of its own (its own core and held objects), configured. */
  async run(): Promise<DynamicMethods> {
    const core = createCore({ engine: DYNAMIC_ENGINE, holds: new Holds(DYNAMIC_ENGINE, memoryHoldStore()), reporterFor: () => SILENT });
    const methods = dynamicMethods(core, () => kindOf(this.type));
    await methods.configure(this.plane.config);
    return methods;
  }

  /** The entry, which an earlier step made. */
  get live(): StateEntry {
    if (!this.entry) throw new Error(`${this.type} ${this.name}: no state entry (the create step did not record one)`);
    return this.entry;
  }

  get outputs(): Props {
    return this.entry ? { ...this.entry.outputs, id: this.entry.id } : {};
  }

  /** The SDK's `deleteBeforeReplace`: the program's option, else the kind's default (sdk/internal/identity.ts). */
  private async deleteFirst(program: Program): Promise<boolean> {
    this.kind ??= await kindOf(this.type);
    return program.deleteBeforeReplace ?? this.kind.replaceOrder !== "create-first";
  }

  /** One run's Check and Diff of the program, as `pulumi preview` and the start of `pulumi up` make them. */
  private async plan(run: DynamicMethods, program: Program): Promise<Previewed & { inputs: Props; deleteFirst: boolean }> {
    await loadKinds();
    this.program = program.inputs;
    const deleteFirst = await this.deleteFirst(program);
    const checked = await run.check(this.entry?.inputs ?? {}, this.sdk(deleteFirst));
    expect(checked.failures).toEqual([]);
    const type = `pulumi-nodejs:dynamic/${this.type}`;
    if (!this.entry) {
      return { op: "create", operations: planChange({ type, urn: this.urn, op: "create", news: checked.inputs })?.operations ?? [], inputs: checked.inputs, deleteFirst };
    }
    const diff = await run.diff(this.live.id, this.live.outputs, checked.inputs);
    if (!diff.changes) return { op: "same", operations: [], inputs: checked.inputs, deleteFirst };
    const op = (diff.replaces ?? []).length > 0 ? "replace" : "update";
    // The preview's step as `clusterform plan` reads it: the old outputs, the checked new inputs.
    const operations = planChange({ type, urn: this.urn, op, id: this.live.id, olds: this.live.outputs, news: checked.inputs })?.operations ?? [];
    // The SDK always registers the option (withReplaceDefaults), so the engine follows the program.
    const order = op === "replace" ? pulumiReplaceOrder(deleteFirst, diff.deleteBeforeReplace === true) : undefined;
    return { op, order, operations, inputs: checked.inputs, deleteFirst };
  }

  async preview(program: Program): Promise<Previewed> {
    const { op, order, operations } = await this.plan(await this.run(), program);
    return { op, order, operations };
  }

  async apply(program: Program): Promise<Applied> {
    const run = await this.run();
    const { inputs, deleteFirst, ...previewed } = await this.plan(run, program);
    const steps: Applied["steps"] = [];
    if (previewed.op === "create") {
      const made = await run.create(inputs);
      this.entry = { id: made.id, inputs, outputs: made.outs };
      steps.push("create");
    } else if (previewed.op === "update") {
      const updated = await run.update(this.live.id, this.live.outputs, inputs);
      this.entry = { ...this.live, inputs, outputs: updated.outs ?? this.live.outputs };
      steps.push("update");
    } else if (previewed.op === "replace") {
      // The engine's second Check, without old inputs, gives the replacement's inputs.
      const checked = await run.check({}, this.sdk(deleteFirst));
      expect(checked.failures).toEqual([]);
      const old = this.live;
      if (previewed.order === "delete-first") await run.delete(old.id, old.outputs);
      const made = await run.create(checked.inputs);
      if (previewed.order === "create-first") await run.delete(old.id, old.outputs);
      this.entry = { id: made.id, inputs: checked.inputs, outputs: made.outs };
      steps.push(...(previewed.order === "delete-first" ? (["delete", "create"] as const) : (["create", "delete"] as const)));
    } else {
      // A step without a change still records the program's new inputs.
      this.entry = { ...this.live, inputs };
    }
    return { ...previewed, steps };
  }

  async refresh(): Promise<void> {
    const read = await (await this.run()).read(this.live.id, this.live.outputs);
    expect(read.id, "the object is still there").toBe(this.live.id);
    this.entry = { ...this.live, outputs: read.props ?? {} };
  }

  async destroy(): Promise<void> {
    const run = await this.run();
    await run.delete(this.live.id, this.live.outputs);
    this.entry = undefined;
  }
}

/** The dynamic provider as Pulumi's dynamic provider host drives it. */
export const DYNAMIC_DRIVER: EngineDriver = {
  engine: "dynamic",
  open: async (type, name, stack, plane) => new DynamicResource(type, name, stack, () => plane),
};

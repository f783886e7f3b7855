import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectOperationsAudited, isPlannable } from "../../../test/harness/planned";
import { loadKinds } from "../../cli/plan/planners";
import type { ReplaceOrder } from "../../core/replacement";
import type { KindType } from "../../kinds";
import { DYNAMIC_DRIVER } from "../dynamic/testing";
import { NATIVE_DRIVER } from "../pulumi-native/testing";
import { TOFU_DRIVER } from "../terraform/testing";
import {
  type AdapterPlane,
  type AuditEntry,
  auditEntries,
  auditSeq,
  type DrivenResource,
  ENGINE_NAMES,
  type EngineDriver,
  type EngineName,
  InOrder,
  type Previewed,
  type Program,
} from "../testing";

/*
 * The field tables (test helper, not built into the package): one row per input field of a kind,
 * the change, the step the engine's preview shows (update, replace in which order, or none), and
 * the exact platform calls the apply makes, in order, from the local plane's audit; each row run on
 * the three engines through their adapters' own protocol surfaces (EngineDriver), against a plane of
 * the table's own per engine. Rows run in order (each starts from the state the previous one left),
 * the three engines side by side.
 */

type Props = Record<string, unknown>;

/** A value per engine. */
export type PerEngine<T> = Readonly<Record<EngineName, T>>;

/** The same value on every engine. */
export const onEvery = <T>(value: T): PerEngine<T> => ({ dynamic: value, pulumi: value, terraform: value });

/** Every engine deletes the old object first. */
export const DELETE_FIRST = onEvery<ReplaceOrder>("delete-first");
/** Every engine creates the new object first: the program asks for it (`deleteBeforeReplace: false`, OpenTofu's `create_before_destroy`). */
export const CREATE_FIRST = onEvery<ReplaceOrder>("create-first");
/**
 * A replacement that gives the object another identity (a new derived or chosen name) in a program
 * that does not ask for an order: the dynamic SDK deletes first (its default option), the native
 * plugin's Diff asks for create-first (nothing of the old object can be mistaken for the new one),
 * OpenTofu destroys first (no `create_before_destroy`).
 */
export const NEW_IDENTITY: PerEngine<ReplaceOrder> = { dynamic: "delete-first", pulumi: "create-first", terraform: "delete-first" };

/** The step each engine shows. */
export type Op = "update" | "replace" | "same";
/**
 * A change no platform call carries out (timeouts, a field used only at creation, an order the
 * platform ignores): Pulumi shows no step (the Diff finds no change), OpenTofu an update that only
 * writes the state (its plan must hold the configuration's values).
 */
export const STATE_ONLY: PerEngine<Op> = { dynamic: "same", pulumi: "same", terraform: "update" };

/** Every resource's outputs (definition keys) by the table's key. */
export type Outputs = Record<string, Props>;

/** One resource of a table's program, declared after the resources its inputs read. */
export interface TableResource<S> {
  key: string;
  type: KindType;
  /** Its program for `spec`, from the outputs of the resources declared before it; undefined when the program has none. */
  program(spec: S, outputs: Outputs, engine: EngineName): Program | undefined;
}

/** What a row's expectations see. */
export interface RowContext {
  engine: EngineName;
  /** Outputs before the apply and after it. */
  before: Outputs;
  after: Outputs;
  plane: AdapterPlane;
  /** What the table's {@link Table.observe} saw before the apply and after it. */
  observed: { before: unknown; after: unknown };
}

/** A replacement's calls: the old object's delete and the new one's create, in the order the engine runs them. */
export interface ReplaceCalls {
  delete: string[];
  create: string[];
}

/** One input field: its change, the step, and the platform calls. */
export interface Row<S> {
  field: string;
  /** The key of the resource the change is for. */
  resource: string;
  /** The spec after this row, from the spec before it. */
  change: (spec: S, engine: EngineName) => S;
  op: Op | PerEngine<Op>;
  /** For a replacement: the order each engine runs it in. */
  order?: PerEngine<ReplaceOrder>;
  /** The platform calls of the apply (`Operation target`, reads left out), in order; a replacement's by half. */
  calls: (ctx: RowContext) => string[] | ReplaceCalls;
  /** More the plane must hold after the apply. */
  expect?: (ctx: RowContext) => void | Promise<void>;
}

/** A field table of one platform. */
export interface Table<S> {
  /** The describe's title. */
  title: string;
  /** The platform's API name in the audit. */
  api: string;
  resources: TableResource<S>[];
  /** The spec before the first row. */
  base: (engine: EngineName) => S;
  rows: Row<S>[];
  /** Starts the plane of one engine's table, with the fixtures the table needs. */
  plane: () => Promise<AdapterPlane>;
  /** Whether an audited call is the row's resource's (the others belong to resources taken along); all are, unless said. */
  ownCall?: (row: Row<S>, entry: AuditEntry) => boolean;
  /** Resources a row's change may take along (their inputs read the row's resource), beside the row's own. */
  along?: (row: Row<S>, engine: EngineName) => string[];
  /** Reads what the rows' {@link Row.expect} compare, before and after each apply. */
  observe?: (plane: AdapterPlane) => Promise<unknown>;
  /** A last test, after every row, on each engine's stack. */
  finally?: { name: string; run: (stack: EngineStack<S>) => Promise<void> };
}

/** The drivers of the three engines. */
export const DRIVERS: PerEngine<EngineDriver> = { dynamic: DYNAMIC_DRIVER, pulumi: NATIVE_DRIVER, terraform: TOFU_DRIVER };

const perEngine = <T>(value: T | PerEngine<T>, engine: EngineName): T =>
  typeof value === "object" && value !== null && engine in (value as object) ? (value as PerEngine<T>)[engine] : (value as T);

/** A `calls` answer in the engine's order. */
function inOrder(calls: string[] | ReplaceCalls, order: ReplaceOrder | undefined): string[] {
  if (Array.isArray(calls)) return calls;
  return order === "create-first" ? [...calls.create, ...calls.delete] : [...calls.delete, ...calls.create];
}

/** A call of the audit as the rows write it: `Operation target`, and the code when not OK. */
export const callOf = (e: AuditEntry): string => `${e.operation} ${e.target}${e.code === "OK" ? "" : ` ${e.code}`}`;

/** One engine's stack of a table: its resources, the spec now, and its plane. */
export class EngineStack<S> {
  spec: S;
  readonly steps = new InOrder();
  private resources: Map<string, DrivenResource> | undefined;

  constructor(
    readonly table: Table<S>,
    readonly engine: EngineName,
    readonly plane: AdapterPlane,
  ) {
    this.spec = table.base(engine);
  }

  async resource(key: string): Promise<DrivenResource> {
    this.resources ??= new Map();
    let found = this.resources.get(key);
    if (!found) {
      const declared = this.table.resources.find((r) => r.key === key);
      if (!declared) throw new Error(`the table has no resource ${key}`);
      found = await DRIVERS[this.engine].open(declared.type, key, `${this.table.api}-${this.engine}`, this.plane);
      this.resources.set(key, found);
    }
    return found;
  }

  /** Every resource's outputs now. */
  async outputs(): Promise<Outputs> {
    const all: Outputs = {};
    for (const r of this.table.resources) all[r.key] = (await this.resource(r.key)).outputs;
    return all;
  }

  /** The preview of every resource the program declares (each program from the outputs of now). */
  async preview(): Promise<Map<string, Previewed>> {
    const outputs = await this.outputs();
    const shown = new Map<string, Previewed>();
    for (const r of this.table.resources) {
      const program = r.program(this.spec, outputs, this.engine);
      if (program) shown.set(r.key, await (await this.resource(r.key)).preview(program));
    }
    return shown;
  }

  /** The apply of every resource the program declares, in declaration order, each program from the outputs its parents have now. */
  async apply(): Promise<Map<string, Previewed>> {
    const applied = new Map<string, Previewed>();
    const outputs: Outputs = {};
    for (const r of this.table.resources) {
      const resource = await this.resource(r.key);
      const program = r.program(this.spec, outputs, this.engine);
      if (program) applied.set(r.key, await resource.apply(program));
      outputs[r.key] = resource.outputs;
    }
    return applied;
  }
}

/** The changing steps of a preview, as `op key`. */
const changing = (shown: Map<string, Previewed>): string[] => [...shown].filter(([, p]) => p.op !== "same").map(([key, p]) => `${p.op} ${key}`);

/**
 * Declares the table's tests: per engine, one that creates the program's resources, then one per
 * row (the three engines' rows side by side, each engine's in order), each asserting the preview's
 * step and order, that the operations plan read from the preview is what the apply sent, the exact
 * calls, what the plane then holds, and that a preview after the apply has nothing to do.
 */
export function fieldTable<S>(table: Table<S>): void {
  const stacks = {} as Record<EngineName, EngineStack<S>>;
  beforeAll(async () => {
    await loadKinds();
    const planes = await Promise.all(ENGINE_NAMES.map(() => table.plane()));
    ENGINE_NAMES.forEach((engine, i) => {
      stacks[engine] = new EngineStack(table, engine, planes[i]);
    });
  });
  afterAll(async () => {
    await Promise.all(Object.values(stacks).map((s) => s.plane.close()));
  });

  const each = (name: string, run: (stack: EngineStack<S>) => Promise<void>) =>
    it.concurrent.for(ENGINE_NAMES)(`%s: ${name}`, async (engine) => {
      const stack = stacks[engine];
      await stack.steps.step(name, () => run(stack));
    });

  describe.concurrent(table.title, () => {
    each("creates the program's resources, and a preview then has nothing to do", async (stack) => {
      const applied = await stack.apply();
      expect([...applied.values()].map((a) => a.op)).toEqual([...applied.keys()].map(() => "create"));
      expect(changing(await stack.preview())).toEqual([]);
    });

    for (const row of table.rows) {
      each(row.field, async (stack) => {
        const { engine, plane } = stack;
        stack.spec = row.change(stack.spec, engine);
        const op = perEngine(row.op, engine);
        const order = op === "replace" ? row.order?.[engine] : undefined;
        if (op === "replace") expect(order, "a replacement row gives each engine's order").toBeDefined();

        const shown = await stack.preview();
        const mine = shown.get(row.resource);
        expect({ op: mine?.op ?? "same", order: mine?.order }).toEqual({ op, order });
        const along = table.along?.(row, engine) ?? [];
        expect(changing(shown).filter((s) => !s.endsWith(` ${row.resource}`) && !along.some((key) => s.endsWith(` ${key}`)))).toEqual([]);

        const before = await stack.outputs();
        const observedBefore = await table.observe?.(plane);
        const since = await auditSeq(plane.t);
        const applied = await stack.apply();
        const audit = (await auditEntries(plane.t, table.api, since)).filter(isPlannable);
        const ctx: RowContext = { engine, before, after: await stack.outputs(), plane, observed: { before: observedBefore, after: await table.observe?.(plane) } };
        expect({ op: applied.get(row.resource)?.op ?? "same", order: applied.get(row.resource)?.order }).toEqual({ op, order });
        const own = audit.filter((e) => table.ownCall?.(row, e) ?? true);
        expect(own.map(callOf)).toEqual(inOrder(row.calls(ctx), order));
        // The operations plan of the previewed change is exactly what the apply did (issue 18).
        expectOperationsAudited(mine?.operations ?? [], own);
        await row.expect?.(ctx);
        expect(changing(await stack.preview())).toEqual([]);
      });
    }

    if (table.finally) each(table.finally.name, table.finally.run);
  });
}

import { withPlatformCapacity } from "./capacity";
import type { ConfigReader } from "./config";
import type { CheckOutcome, CreateContext, Created, Deleted, DiffOutcome, OperationContext, Props, Reporter, ResourceOperations } from "./contract";
import { effectiveTimeouts } from "./deadline";
import { deletionPolicyOf, deletionRefused, replacementRefused } from "./deletion";
import { engineName } from "./definition/names";
import type { Kind } from "./definition/kind";
import { retiredInputs, retiredWarning, SCHEMA_VERSION, upgradeState, withSchemaVersion } from "./definition/migration";
import type { EngineTraits, Holder } from "./engine";
import type { Holds } from "./holds";
import { importObject, type ImportIdentity, type ImportResult } from "./import";
import { type LookupOutcome, lookupOf, observe, runLookup } from "./lookup";
import { planDiff } from "./planner";
import { planLine, plannedCalls } from "./plan/announce";
import { planUpdate } from "./plan/operation";
import { replacementClash, replacementOrder, ReplacementGuard } from "./replacement";
import { Turns } from "./turns";
import { withUnreportedAdopted } from "./unreported";
import { validateInputs } from "./validation";

/** What an engine adapter gives the core once per provider process. */
export interface CoreOptions {
  readonly engine: EngineTraits;
  /** The run's held objects (holds.ts), shared by every provider process of the run where the engine runs several. */
  readonly holds: Holds;
  /** Where an operation's progress and warnings for one resource go; a silent one where the engine shows none. */
  reporterFor(holder: Holder | undefined): Reporter;
  /** The configuration until {@link Core.configure} gives another. @default nothing set */
  readonly config?: ConfigReader;
}

/** A change's request: one resource (state entry) of one kind. */
interface Request {
  readonly holder: Holder;
}

/** The core serving every kind to one engine in one provider process (see docs/design.md). */
export interface Core {
  /** The provider configuration (endpoints, credentials), read at each call. */
  configure(config: ConfigReader): void;
  readonly engine: EngineTraits;
  /** Validates and completes inputs; never calls the platform. `olds` are empty for a resource the engine will create. */
  check(kind: Kind, req: Request & { olds: Props; news: Props }): Promise<CheckOutcome>;
  /**
   * Plans a change of object `id`; never calls the platform. `deleteFirst` is the program's order
   * where the engine lets the program state it (`replaceOrder: "program"`).
   */
  diff(kind: Kind, req: Request & { id: string; olds: Props; news: Props; deleteFirst?: boolean }): Promise<DiffOutcome>;
  /** Creates the object (or adopts what an interrupted create of this resource left). `timeoutSeconds`: the engine's own limit, if any. */
  create(kind: Kind, req: Request & { inputs: Props; deleteFirst?: boolean; timeoutSeconds?: number }): Promise<Created>;
  /** Reads the live object; undefined when it is gone. */
  read(kind: Kind, req: Request & { id: string; state: Props }): Promise<Created | undefined>;
  /** Carries out the planned in-place update. */
  update(kind: Kind, req: Request & { id: string; olds: Props; news: Props; timeoutSeconds?: number }): Promise<{ state: Props }>;
  /**
   * Checks a delete before it runs, as a plan: refuses it (throws) when the object's deletionPolicy
   * is `protect`. Never calls the platform; {@link delete} checks the same.
   */
  planDelete(kind: Kind, req: { id: string; state: Props }): Promise<void>;
  /**
   * Deletes the object, or keeps it when another entry (or this entry's live copy) holds it:
   * holds.ts; refuses a protected object and forgets an abandoned one, with no platform call.
   */
  delete(kind: Kind, req: Request & { id: string; state: Props; timeoutSeconds?: number }): Promise<Deleted>;
  /**
   * Reads an existing object by its import id, as program inputs and state; only reads. The
   * importing entry (`holder`, when the engine names it) holds the object from then on in this run.
   */
  import(kind: Kind, req: { id: string; identity: ImportIdentity; holder?: Holder }): Promise<ImportResult>;
  /**
   * Runs the kind's lookup `name` (a function, a data source) with `args` in the definitions' keys;
   * only reads, and holds nothing: the object stays whoever's it is.
   */
  lookup(kind: Kind, req: { name: string; args: Props }): Promise<LookupOutcome>;
  /**
   * Reads the object `id` (its import id) into a state, as a program's `get` of a resource does:
   * only reads, and holds nothing (the engine never deletes what a `get` read).
   */
  observe(kind: Kind, req: { id: string }): Promise<Created>;
}

/** The core of one provider process. */
export function createCore(options: CoreOptions): Core {
  const { engine, holds } = options;
  let config: ConfigReader = options.config ?? { get: () => undefined };
  const reader: ConfigReader = { get: (key) => config.get(key) };
  const guard = new ReplacementGuard();
  const turns = new Turns();
  /** The deletion policy input as the engine's users write it, for messages. */
  const policyField = engineName("deletionPolicy", {}, engine.names);
  const contextFor = (holder: Holder | undefined): OperationContext => ({ config: reader, report: options.reporterFor(holder) });
  const operationsOf = <I>(kind: Kind) => kind.operations() as Promise<ResourceOperations<I>>;
  /**
   * Creates and deletes of one object (one name) run in turn in this process: a second create of a
   * name then finds the first's object and meets the adoption rules (holds.ts), and a create never
   * adopts what a delete is removing at that moment (OpenTofu runs both side by side).
   */
  const inTurn = <T>(kind: Kind, props: Props, run: () => Promise<T>): Promise<T> => turns.run(`${kind.type}\u0000${turnName(kind, props)}`, run);

  const core: Core = {
    engine,
    configure(c) {
      config = c;
    },

    async check(kind, { holder, olds: recorded, news: given }) {
      const updating = Object.keys(recorded).length > 0;
      const olds = updating ? upgradeState(kind, recorded) : recorded;
      // A program still writing a field a migration renamed is read as the state is, and told.
      const { [SCHEMA_VERSION]: _marker, ...written } = given;
      const { news, retired } = retiredInputs(kind.migrations, new Set(Object.keys(kind.allInputs)), written);
      for (const r of retired) await options.reporterFor(holder).warn(retiredWarning(kind.type, r));
      const result = validateInputs(kind.schema, news);
      if (!result.inputs) return { failures: result.failures };
      const inputs = withSchemaVersion(kind.schemaVersion, kind.complete ? kind.complete(olds, result.inputs as Props, kind) : (result.inputs as Props));
      if (updating) guard.remember(holder, kind.identity(olds));
      else holds.checkedAsNew(holder);
      const failures = kind.checkChange && updating ? kind.checkChange(olds, inputs) : [];
      return failures.length > 0 ? { failures } : { inputs, failures: [] };
    },

    async diff(kind, { holder, id, olds: recorded, news: given, deleteFirst }) {
      // Both sides may be recorded state: a refresh diffs the read state against the recorded inputs.
      const olds = upgradeState(kind, recorded);
      const news = upgradeState(kind, given);
      const before = withUnreportedAdopted(olds, news);
      const capacity = withPlatformCapacity(kind.policies, before, news);
      const plan = planDiff(kind.policies, before, capacity.news);
      let outcome: DiffOutcome;
      if (plan.replaces.length === 0) {
        const twice = holds.diffed(holder, kind.type, id, false);
        if (twice) await options.reporterFor(holder).warn(twice);
        guard.planned(holder, undefined);
        const operations = plan.changes ? planUpdate(kind.policies, kind.planner, olds, news, id).operations : [];
        const owned = capacity.owned.length > 0 ? { platformOwned: capacity.owned, ...(capacity.clamps.length > 0 ? { clamps: capacity.clamps } : {}) } : {};
        outcome = { changes: plan.changes, replaces: [], deleteFirst: false, operations, ...owned };
      } else {
        const refused = replacementRefused(kind.type, id, olds, plan.replaces, policyField);
        if (refused) throw refused;
        const identities = { before: kind.identity(olds), after: kind.identity(news) };
        const order = replacementOrder(engine.replaceOrder, kind.replaceOrder, identities, deleteFirst);
        if (order === "clash") throw replacementClash(identities.before!, plan.replaces);
        guard.planned(holder, order);
        holds.diffed(holder, kind.type, id, true);
        const operations = plannedCalls(kind, "replace", id, olds, news, order);
        outcome = { changes: true, replaces: plan.replaces, deleteFirst: order === "delete-first", operations };
      }
      const line = planLine(outcome, plan.replaces);
      // The plan is a courtesy on the row; the answer stands whatever becomes of it.
      if (line) await options.reporterFor(holder).note(line).catch(() => undefined);
      return outcome;
    },

    async create(kind, { holder, inputs, deleteFirst, timeoutSeconds }) {
      const ops = await operationsOf(kind);
      const order = guard.orderOf(holder, engine.replaceOrder, deleteFirst);
      let adopted = false;
      const ctx: CreateContext = {
        ...contextFor(holder),
        adoptInUse: engine.recordsStateAtEnd,
        confirmAdoption(operation, found) {
          guard.confirmAdoption(holder, order, operation, found.identity);
          holds.beforeAdopting(holder, kind.type, found.id, operation);
          adopted = true;
        },
        adopting(operation, id) {
          holds.beforeAdopting(holder, kind.type, id, operation);
          adopted = true;
        },
      };
      const running = effectiveTimeouts(inputs, "create", timeoutSeconds);
      const { id, outs } = await inTurn(kind, inputs, () => ops.create(ctx, running));
      holds.created(holder, kind.type, id, adopted);
      return { id, state: withSchemaVersion(kind.schemaVersion, withOwnTimeouts({ ...inputs, ...outs }, inputs.timeouts)) };
    },

    async read(kind, { holder, id, state: recorded }) {
      const ops = await operationsOf(kind);
      const state = upgradeState(kind, recorded);
      const live = await ops.read(contextFor(holder), id, state);
      // A field the read answers undefined is gone from the state (no engine's wire carries undefined).
      return live ? { id, state: Object.fromEntries(Object.entries({ ...state, ...live }).filter(([, v]) => v !== undefined)) } : undefined;
    },

    async update(kind, { holder, id, olds: recorded, news, timeoutSeconds }) {
      const ops = await operationsOf(kind);
      const olds = upgradeState(kind, recorded);
      const plan = planUpdate(kind.policies, kind.planner, olds, news, id);
      // Sizes the platform owns stay as the state has them (clamped into new bounds): the operations
      // converge to them and the state records them, never the program's initial size.
      const kept = withPlatformCapacity(kind.policies, withUnreportedAdopted(olds, news), news).news;
      const outs = await ops.update(contextFor(holder), id, olds, effectiveTimeouts(kept, "update", timeoutSeconds), plan);
      return { state: withSchemaVersion(kind.schemaVersion, withOwnTimeouts({ ...kept, ...outs }, news.timeouts)) };
    },

    async delete(kind, { holder, id, state: recorded, timeoutSeconds }) {
      const ctx = contextFor(holder);
      const state = upgradeState(kind, recorded);
      return inTurn(kind, state, async () => {
        // An object another entry holds is kept whatever its policy says: nothing would be deleted.
        const reason = holds.reasonToKeep(holder, kind.type, id);
        if (reason !== undefined) {
          await ctx.report.warn(reason);
          return { kept: reason };
        }
        await core.planDelete(kind, { id, state });
        if (deletionPolicyOf(state) === "abandon") {
          await ctx.report.warn(`left ${kind.type} ${JSON.stringify(id)} on the platform and forgot it (${policyField} "abandon"): nothing was deleted`);
          return { abandoned: true };
        }
        const ops = await operationsOf(kind);
        await ops.delete(ctx, id, effectiveTimeouts(state, "delete", timeoutSeconds));
        holds.deleted(kind.type, id);
        return {};
      });
    },

    async planDelete(kind, { id, state }) {
      const refused = deletionRefused(kind.type, id, upgradeState(kind, state), policyField);
      if (refused) throw refused;
    },

    async import(kind, { id, identity, holder }) {
      const importer = await kind.importer();
      const checking = holder ?? { key: `import ${kind.type} ${id}`, label: `the import of ${id}` };
      const check = (olds: Props, news: Props) => core.check(kind, { holder: checking, olds, news });
      const imported = await importObject(kind, importer, id, identity, { config: reader, report: options.reporterFor(holder) }, check);
      if (holder) holds.created(holder, kind.type, imported.id, true);
      return imported;
    },

    lookup: (kind, { name, args }) => runLookup(kind, lookupOf(kind, name), args, contextFor(undefined)),

    async observe(kind, { id }) {
      return { id, state: withSchemaVersion(kind.schemaVersion, await observe(kind, id, contextFor(undefined))) };
    },
  };
  return core;
}

/** The name creates and deletes of one object take turns by: the object's own name where the kind has one. */
function turnName(kind: Kind, props: Props): string {
  const named = Object.hasOwn(kind.allInputs, "name") ? props.name : undefined;
  if (typeof named === "string") return named;
  return typeof props.resourceName === "string" ? props.resourceName : "";
}

/** `state` with the user's own `timeouts` (not the effective ones an operation ran with). */
function withOwnTimeouts(state: Props, timeouts: unknown): Props {
  const { timeouts: _ran, ...rest } = state;
  return timeouts === undefined ? rest : { ...rest, timeouts };
}

import type * as pulumi from "@pulumi/pulumi";
import type { ConfigReader } from "../../core/config";
import { type Core, createCore } from "../../core/runtime";
import { upgradeState } from "../../core/definition/migration";
import type { Props } from "../../core/contract";
import type { Kind } from "../../core/definition/kind";
import { fromEngineNames } from "../../core/definition/names";
import type { Holder } from "../../core/engine";
import { Holds, holdStoreFor } from "../../core/holds";
import { planUpdate } from "../../core/plan/operation";
import { type CheckFailure, describeValue, isUnknown } from "../../core/validation";
import { kindOf } from "../../kinds";
import { reporterFor } from "../pulumi-common/engine-log";
import { forEngine, partialStateForEngine } from "../pulumi-common/answers";
import { DYNAMIC_ENGINE } from "./engine";
import { reportedOnce } from "./report-once";

/*
 * The Pulumi dynamic provider: the methods of `pulumi.dynamic.ResourceProvider`, translated to and
 * from the core (core/runtime.ts). What this adapter alone knows:
 * - the hidden inputs the SDK sends besides the kind's own (sdk/internal/identity.ts):
 *   `deleteBeforeReplace` (the program's replacement order), `resourceUrn` (the resource's row and
 *   its holder key), and the `__provider` text every state must keep (the host runs delete from it);
 * - state written by the native plugin (a resource moved to its dynamic class by alias): Pulumi
 *   names, no `__provider`; it is read in the definitions' keys, and its first Diff asks for an
 *   update that rewrites the state in this provider's form without a platform write.
 */

/** What the SDK adds to every resource's inputs that is not a field of the kind. */
const ENGINE_INPUTS = ["__provider", "deleteBeforeReplace", "resourceUrn"] as const;

let core: Core | undefined;
/** The core of this process: one per dynamic provider process, its held objects shared with the run's plugin. */
function theCore(): Core {
  core ??= createCore({
    engine: DYNAMIC_ENGINE,
    holds: new Holds(DYNAMIC_ENGINE, holdStoreFor(DYNAMIC_ENGINE, "pulumi")),
    reporterFor: (holder) => reporterFor({ resourceUrn: holder?.key }),
  });
  return core;
}

/**
 * True for state the native plugin wrote: Pulumi names, no `__provider` and no `resourceName` (the
 * plugin derives its identity from the URN and never keeps it). Not told apart by `owner`: that is
 * also the Pulumi name of some kinds' own fields (a vcluster's `vclusterOwner`, a job's `jobOwner`).
 */
function isNativeState(props: Props): boolean {
  return !("__provider" in props) && !("resourceName" in props) && Object.keys(props).length > 0;
}

/**
 * A state or inputs in the definitions' keys without the SDK's engine inputs. Native state gets the
 * identity the SDK would send from `identity` (the new inputs of the same resource) where it has one.
 */
function inward(k: Kind, props: Props, identity: Props = {}): Props {
  const plain = Object.fromEntries(Object.entries(props).filter(([key]) => !(ENGINE_INPUTS as readonly string[]).includes(key)));
  if (!isNativeState(props)) return plain;
  const { owner, resourceName } = identity;
  return { ...fromEngineNames(k, plain, "pulumi"), ...(owner === undefined ? {} : { owner, resourceName }) };
}

/** The engine inputs the SDK sent, without the ones it did not. */
function engineInputsOf(props: Props): Props {
  return Object.fromEntries(ENGINE_INPUTS.map((key) => [key, props[key]]).filter(([, v]) => v !== undefined));
}

/**
 * The state entry a call is about: its URN (the SDK sends it), else its ownership marker (state
 * written before the URN was sent), else its id.
 */
function holderOf(props: Props, id?: string): Holder {
  const urn = props.resourceUrn;
  if (typeof urn === "string" && urn.startsWith("urn:pulumi:")) return { key: urn, label: urn };
  const owner = props.owner;
  if (typeof owner === "string" && owner !== "") return { key: `owner ${owner}`, label: `the resource with ownership marker ${owner}` };
  return { key: `id ${id ?? "?"}`, label: `the resource of id ${JSON.stringify(id ?? "?")}` };
}

/** The program's replacement order (`deleteBeforeReplace`), undefined when the SDK did not send it. */
function programOrder(props: Props): boolean | undefined {
  return typeof props.deleteBeforeReplace === "boolean" ? props.deleteBeforeReplace : undefined;
}

function checkReplaceOrder(value: unknown): CheckFailure[] {
  if (value === undefined || typeof value === "boolean" || isUnknown(value)) return [];
  return [{ property: "deleteBeforeReplace", reason: `deleteBeforeReplace must be a boolean, got ${describeValue(value)}` }];
}

/** The methods of one kind's dynamic provider over a core, answering as Pulumi's dynamic host expects. */
export interface DynamicMethods {
  configure(config: ConfigReader): Promise<void>;
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  /** Answers why the object was kept, when it was (the host itself ignores the answer). */
  delete(id: string, props: Props): Promise<{ kept: string } | undefined>;
}

/**
 * The dynamic provider of one kind over `core` (the kind loads at the first call). The process's
 * providers share one core ({@link dynamicProvider}); tests build their own.
 */
export function dynamicMethods(core: Core, load: () => Promise<Kind>): DynamicMethods {
  return {
    async configure(config) {
      core.configure(config);
    },
    check: (olds, news) =>
      reportedOnce(async () => {
        const k = await load();
        const engine = engineInputsOf(news);
        const orderFailures = checkReplaceOrder(news.deleteBeforeReplace);
        const plain = inward(k, news);
        const result = await core.check(k, { holder: holderOf(news), olds: inward(k, olds, plain), news: plain });
        const failures = [...orderFailures, ...result.failures].map(forEngine);
        if (!result.inputs || failures.length > 0) return { inputs: news, failures };
        return { inputs: { ...result.inputs, ...engine }, failures: [] };
      }),
    // State the native plugin wrote asks for an update: this provider's host deletes from the
    // `__provider` text in the state, which only an update records.
    diff: (id, olds, news) =>
      reportedOnce(async () => {
        const k = await load();
        const plain = inward(k, news);
        const result = await core.diff(k, { holder: holderOf(news, id), id, olds: inward(k, olds, plain), news: plain, deleteFirst: programOrder(news) });
        if (!result.changes && isNativeState(olds)) return { changes: true, replaces: [], deleteBeforeReplace: false };
        return { changes: result.changes, replaces: result.replaces, deleteBeforeReplace: result.replaces.length > 0 && result.deleteFirst };
      }),
    async create(inputs) {
      const k = await load();
      const engine = engineInputsOf(inputs);
      try {
        const made = await core.create(k, { holder: holderOf(inputs), inputs: inward(k, inputs), deleteFirst: programOrder(inputs) });
        return { id: made.id, outs: { ...made.state, ...engine } };
      } catch (err) {
        throw partialStateForEngine(err, engine);
      }
    },
    // A blank id tells the engine the object is gone.
    read: (id, props) =>
      reportedOnce(async () => {
        const k = await load();
        const live = await core.read(k, { holder: holderOf(props, id), id, state: inward(k, props) });
        return live ? { id, props: { ...live.state, ...engineInputsOf(props) } } : { id: "", props: {} };
      }),
    // State the native plugin wrote, with nothing else changed, is rewritten from a read alone.
    async update(id, olds, news) {
      const k = await load();
      const engine = engineInputsOf(news);
      const plain = inward(k, news);
      // Upgraded first: the native plugin's state may be an older release's (core/definition/migration.ts).
      const before = upgradeState(k, inward(k, olds, plain));
      const holder = holderOf(news, id);
      try {
        if (isNativeState(olds) && !planUpdate(k.policies, k.planner, before, plain, id).diff.changes) {
          const live = await core.read(k, { holder, id, state: { ...before, ...plain } });
          return { outs: { ...(live?.state ?? { ...before, ...plain }), ...plain, ...engine } };
        }
        const updated = await core.update(k, { holder, id, olds: before, news: plain });
        return { outs: { ...updated.state, ...engine } };
      } catch (err) {
        throw partialStateForEngine(err, engine);
      }
    },
    delete: (id, props) =>
      reportedOnce(async () => {
        const k = await load();
        const result = await core.delete(k, { holder: holderOf(props, id), id, state: inward(k, props) });
        return result.kept === undefined ? undefined : { kept: result.kept };
      }),
  };
}

/** Receives the stack configuration; every kind reads it at call time. */
export function configure(type: string, req: { config: ConfigReader }): Promise<void> {
  return methodsOf(type).configure(req.config);
}

/** Validates and normalizes inputs; never calls the platform. */
export function check(type: string, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  return methodsOf(type).check(olds, news);
}

/** Plans the change; never calls the platform. */
export function diff(type: string, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  return methodsOf(type).diff(id, olds, news);
}

/** Creates the object on the platform and waits until it is ready. */
export function create(type: string, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  return methodsOf(type).create(inputs);
}

/** Reads the object's live state (refresh). */
export function read(type: string, id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  return methodsOf(type).read(id, props);
}

/** Maps the diff onto the platform's own operations and waits for them. */
export function update(type: string, id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  return methodsOf(type).update(id, olds, news);
}

/** Deletes the object and waits until it is gone (or keeps it, with a warning on the resource: core/holds.ts). */
async function remove(type: string, id: string, props: Props): Promise<void> {
  await methodsOf(type).delete(id, props);
}

export { remove as delete };

const methods = new Map<string, DynamicMethods>();

function methodsOf(type: string): DynamicMethods {
  let found = methods.get(type);
  if (!found) {
    found = dynamicMethods(theCore(), () => kindOf(type));
    methods.set(type, found);
  }
  return found;
}

/**
 * The provider object of one resource type, as Pulumi's dynamic provider host wants it: what the
 * `__provider` text of every resource since the SDK writes its own returns from `handler()`. Loads
 * nothing: the type's kind loads at its first call.
 */
export function dynamicProvider(type: string): pulumi.dynamic.ResourceProvider {
  const m = methodsOf(type);
  return {
    configure: (req) => m.configure(req.config),
    check: (olds, news) => m.check(olds, news),
    diff: (id, olds, news) => m.diff(id, olds, news),
    create: (inputs) => m.create(inputs),
    read: (id, props) => m.read(id, props),
    update: (id, olds, news) => m.update(id, olds, news),
    delete: async (id, props) => {
      await m.delete(id, props);
    },
  };
}

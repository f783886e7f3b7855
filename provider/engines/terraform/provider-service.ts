import type { ServiceImpl } from "@connectrpc/connect";
import type { ConfigReader } from "../../core/config";
import { PartialStateError, type Props, SILENT } from "../../core/contract";
import type { Kind } from "../../core/definition/kind";
import type { Core } from "../../core/runtime";
import { type CtyType, decodeMsgpack, decodeStateJson, encodeMsgpack, type TfValue, UNKNOWN_VALUE } from "./codec";
import { clampWarning, type Diagnostic, errorDiagnostic, failureDiagnostics } from "./diagnostics";
import { PROVIDER_ATTRIBUTES, PROVIDER_TYPE, providerConfigReader } from "./provider-config";
import { storedSchema } from "./schema-cache";
import { TYPE_NAMES } from "./kind-modules";
import { TERRAFORM_ENGINE } from "./engine";
import { argsOf, buildDataSources, dataSource, dataStateOf } from "./data-sources";
import { attributeName, ctyOf, resourceType, resourceTypes, type TfAttribute, type TfResourceType } from "./schema";
import { decodePrivate, encodePrivate, fromHandler, holderOf, inputsOf, newHolder, planningHolder, propsOf, stateOf, toHandler, upgradeStored, withHolder, withIdentity } from "./state";
import { retiredInputs } from "../../core/definition/migration";
import { UNKNOWN } from "../../core/unknown";
import type { Stopper } from "./stopper";
import type { Provider } from "../../../proto/gen/tfplugin6/tfplugin6_pb";

type TfObject = Record<string, TfValue>;

const stringAttribute = (name: string, description: string, sensitive: boolean) => ({
  name,
  type: new TextEncoder().encode('"string"'),
  description,
  optional: true,
  sensitive,
});

/**
 * The core of this provider process, loaded at the first call about a resource: tofu starts the
 * provider several times per command, and many starts answer only the schema or a validation.
 */
function lazyCore(config: () => ConfigReader): () => Promise<Core> {
  let loading: Promise<Core> | undefined;
  return () =>
    (loading ??= (async () => {
      const [{ createCore }, { Holds, holdStoreFor }] = await Promise.all([import("../../core/runtime"), import("../../core/holds")]);
      const holds = new Holds(TERRAFORM_ENGINE, holdStoreFor(TERRAFORM_ENGINE, "tofu"));
      return createCore({ engine: TERRAFORM_ENGINE, holds, reporterFor: () => SILENT, config: { get: (key) => config().get(key) } });
    })());
}

/**
 * The Terraform plugin protocol (v6) over the core: every check, plan and platform operation is
 * the core's; this file only translates values and answers.
 */
export function providerService(stopper: Stopper): Partial<ServiceImpl<typeof Provider>> {
  let schema: Record<string, unknown> | undefined;
  let config: ConfigReader = providerConfigReader(null);
  const theCore = lazyCore(() => config);
  const typeOrError = async (name: string): Promise<{ type: TfResourceType; kind: Kind; core: Core }> => {
    const found = await resourceType(name);
    if (!found) throw new Error(`clusterform: unknown resource type "${name}"; this release serves: ${TYPE_NAMES.join(", ")}`);
    return { ...found, core: await theCore() };
  };
  const dv = (value: TfValue, type: CtyType) => ({ msgpack: encodeMsgpack(value, type) });
  const read = (bytes: { msgpack: Uint8Array; json: Uint8Array } | undefined, type: CtyType): TfValue => {
    if (!bytes) return null;
    if (bytes.msgpack.length > 0) return decodeMsgpack(bytes.msgpack, type);
    return bytes.json.length > 0 ? decodeStateJson(bytes.json, type) : null;
  };
  const guarded = async <T extends object>(run: () => Promise<T>): Promise<T | { diagnostics: Diagnostic[] }> => {
    try {
      return await run();
    } catch (err) {
      return { diagnostics: [errorDiagnostic(err)] };
    }
  };

  const theSchema = async () => (schema ??= storedSchema() ?? (await providerSchema()));
  return {
    getMetadata: () =>
      guarded(async () => ({
        serverCapabilities: { getProviderSchemaOptional: true, planDestroy: true },
        resources: TYPE_NAMES.map((typeName) => ({ typeName })),
        dataSources: Object.keys((await theSchema()).dataSourceSchemas as object).map((typeName) => ({ typeName })),
      })),
    getProviderSchema: () => guarded(theSchema),
    validateDataResourceConfig: () => ({}),
    // A data source is a lookup of the core (only reads): bad arguments point at their attribute; a
    // missing object fails naming the kind, the key and the endpoint; a list with no match is empty.
    readDataSource: (req) =>
      guarded(async () => {
        const found = await dataSource(req.typeName);
        if (!found) throw new Error(`clusterform: unknown data source "${req.typeName}"; this release serves: ${Object.keys((await theSchema()).dataSourceSchemas as object).join(", ")}`);
        const { type, kind } = found;
        const config = (read(req.config, type.objectType) ?? {}) as TfObject;
        const outcome = await (await theCore()).lookup(kind, { name: type.lookup.name, args: argsOf(type, config) });
        if (!outcome.result) return { diagnostics: failureDiagnostics(type, outcome.failures) };
        return { state: dv(dataStateOf(type, config, outcome.result), type.objectType) };
      }),
    validateProviderConfig: () => ({}),
    configureProvider: (req) =>
      guarded(async () => {
        config = providerConfigReader(read(req.config, PROVIDER_TYPE));
        return {};
      }),
    validateResourceConfig: (req) =>
      guarded(async () => {
        const { type, kind, core } = await typeOrError(req.typeName);
        const cfg = read(req.config, type.objectType) as TfObject;
        const retired = retiredFailures(type, kind, cfg);
        if (retired.length > 0) return { diagnostics: failureDiagnostics(type, retired) };
        const news = withIdentity(type, inputsOf(type, cfg));
        const result = await core.check(kind, { holder: planningHolder(type, news), olds: {}, news });
        return { diagnostics: failureDiagnostics(type, result.failures) };
      }),
    upgradeResourceState: (req) =>
      guarded(async () => {
        const { type, kind } = await typeOrError(req.typeName);
        const raw = req.rawState?.json;
        if (!raw || raw.length === 0) return { upgradedState: dv(null, type.objectType) };
        // State of this release's schema version decodes as it is (a new optional attribute is
        // null); older state goes through the kind's migrations, and newer state is refused.
        const from = Number(req.version);
        const value = from === type.schemaVersion ? decodeStateJson(raw, type.objectType) : upgradeStored(type, kind, new TextDecoder().decode(raw), from);
        return { upgradedState: dv(value, type.objectType) };
      }),
    readResource: (req) =>
      guarded(async () => {
        const { type, kind, core } = await typeOrError(req.typeName);
        const current = read(req.currentState, type.objectType) as TfObject | null;
        if (!current) return { newState: dv(null, type.objectType) };
        const privateProps = decodePrivate(req.private);
        const props = propsOf(type, current, privateProps);
        const live = await core.read(kind, { holder: holderOf(type, privateProps, props), id: String(current.id), state: props });
        if (!live) return { newState: dv(null, type.objectType) };
        // What the stored inputs normalize to: a value the platform reports in another form is not drift.
        const stored = withIdentity(type, inputsOf(type, current), props);
        const normalized = (await core.check(kind, { holder: holderOf(type, privateProps, props), olds: {}, news: stored })).inputs ?? stored;
        return { newState: dv(stateOf(type, live.id, live.state, current, normalized), type.objectType), private: encodePrivate(type, withHolder(live.state, privateProps)) };
      }),
    planResourceChange: (req) => guarded(() => plan(req)),
    applyResourceChange: (req) =>
      guarded(async () => {
        try {
          return await stopper.race(apply(req));
        } catch (err) {
          return partialState(req.typeName, req.plannedState, req.plannedPrivate, err);
        }
      }),
    importResourceState: (req) =>
      guarded(async () => {
        const { type, kind, core } = await typeOrError(req.typeName);
        // The kind's import reads the object by id alone (only reads), with the identity a new
        // object of this type would get; a wrong id, a missing object or an unreachable platform
        // fails naming the kind, the id and its expected shape.
        const { owner, resourceName } = withIdentity(type, {}, {}) as { owner: string; resourceName: string };
        const imported = await core.import(kind, { id: req.id, identity: { owner, resourceName } });
        const live = imported.props;
        return {
          importedResources: [{ typeName: type.name, state: dv(stateOf(type, imported.id, live), type.objectType), private: encodePrivate(type, withHolder(live, {})) }],
        };
      }),
    stopProvider: () => {
      stopper.stop();
      return {};
    },
  };

  /**
   * An apply that failed after its object came to exist (a create whose wait timed out, an update
   * halfway): the error carries the object's id and properties, and tofu records them with the
   * error (a failed create as tainted, replaced by the next apply), so nothing is orphaned. An input
   * the kind reports with another value than the configuration's (normalized as at plan) did not
   * take effect: the state keeps the kind's value, so the next plan plans that change again rather
   * than recording it as done. An input the kind does not report keeps the configuration's value.
   */
  async function partialState(typeName: string, plannedState: { msgpack: Uint8Array; json: Uint8Array } | undefined, plannedPrivate: Uint8Array | undefined, err: unknown) {
    if (!(err instanceof PartialStateError) || err.id === "") throw err;
    const { type, kind, core } = await typeOrError(typeName);
    const planned = read(plannedState, type.objectType) as TfObject | null;
    const props = { ...err.properties };
    delete props.__provider;
    let normalized: Props | undefined;
    if (planned) {
      const privateProps = decodePrivate(plannedPrivate);
      const news = withIdentity(type, inputsOf(type, planned), privateProps);
      const checked = (await core.check(kind, { holder: holderOf(type, privateProps, props), olds: {}, news })).inputs ?? news;
      normalized = Object.fromEntries(Object.entries(checked).map(([field, value]) => [field, props[field] === undefined ? undefined : value]));
    }
    return {
      newState: dv(stateOf(type, err.id, props, planned ?? undefined, normalized), type.objectType),
      private: encodePrivate(type, withHolder(props, decodePrivate(plannedPrivate))),
      diagnostics: [errorDiagnostic(err)],
    };
  }

  async function plan(req: Parameters<NonNullable<ServiceImpl<typeof Provider>["planResourceChange"]>>[0]) {
    const { type, kind, core } = await typeOrError(req.typeName);
    const proposed = read(req.proposedNewState, type.objectType) as TfObject | null;
    const prior = read(req.priorState, type.objectType) as TfObject | null;
    const priorPrivate = decodePrivate(req.priorPrivate);
    if (!proposed) {
      // A destroy: a protected object fails here, at plan, with no platform call.
      if (prior) await core.planDelete(kind, { id: String(prior.id), state: propsOf(type, prior, priorPrivate) });
      return { plannedState: dv(null, type.objectType) };
    }
    const retired = retiredFailures(type, kind, proposed);
    if (retired.length > 0) return { diagnostics: failureDiagnostics(type, retired) };
    const olds = prior ? propsOf(type, prior, priorPrivate) : {};
    const candidate = withIdentity(type, inputsOf(type, proposed), priorPrivate);
    const holder = prior ? holderOf(type, priorPrivate, olds) : planningHolder(type, candidate);
    const checked = await core.check(kind, { holder, olds, news: candidate });
    if (!checked.inputs) return { diagnostics: failureDiagnostics(type, checked.failures) };
    const news = checked.inputs;
    const planned: TfObject = { ...proposed };
    // Optional inputs the user left out take the value check() filled in (a default, a derived value).
    for (const attr of type.attributes) {
      if (!attr.output && attr.computed && proposed[attr.name] === null && news[attr.field] !== undefined) {
        planned[attr.name] = fromHandler(attr.node, news[attr.field]);
      }
    }
    const unknownOutputs = (keepId: boolean) => {
      for (const attr of type.attributes) if (attr.output && !(keepId && attr.field === "id")) planned[attr.name] = UNKNOWN_VALUE;
    };
    if (!prior) {
      unknownOutputs(false);
      return { plannedState: dv(planned, type.objectType), plannedPrivate: req.priorPrivate };
    }
    const diff = await core.diff(kind, { holder, id: String(prior.id), olds, news });
    // A size the platform owns keeps its prior (live) value in the plan, as tofu allows a provider
    // to plan for a configured attribute; an apply that clamps it records the live size at the next refresh.
    for (const attr of type.attributes) if (diff.platformOwned?.includes(attr.field) && prior[attr.name] !== null) planned[attr.name] = prior[attr.name];
    if (diff.changes) unknownOutputs(diff.replaces.length === 0);
    const requiresReplace = type.attributes
      .filter((a) => diff.replaces.includes(a.field))
      .map((a) => ({ steps: [{ selector: { case: "attributeName" as const, value: a.name } }] }));
    const clamps = (diff.clamps ?? []).map((c) => clampWarning(type, c));
    return { plannedState: dv(planned, type.objectType), requiresReplace, plannedPrivate: req.priorPrivate, ...(clamps.length > 0 ? { diagnostics: clamps } : {}) };
  }

  async function apply(req: Parameters<NonNullable<ServiceImpl<typeof Provider>["applyResourceChange"]>>[0]) {
    const { type, kind, core } = await typeOrError(req.typeName);
    const planned = read(req.plannedState, type.objectType) as TfObject | null;
    const prior = read(req.priorState, type.objectType) as TfObject | null;
    const cfg = read(req.config, type.objectType) as TfObject | null;
    const priorPrivate = decodePrivate(req.plannedPrivate);
    if (!planned) {
      if (!prior) return { newState: dv(null, type.objectType) };
      const props = propsOf(type, prior, priorPrivate);
      stopper.throwIfStopped();
      const deleted = await core.delete(kind, { holder: holderOf(type, priorPrivate, props), id: String(prior.id), state: props });
      const warnings = deleted.kept ? [keptWarning(type, String(prior.id))] : deleted.abandoned ? [abandonedWarning(type, String(prior.id))] : [];
      return { newState: dv(null, type.objectType), diagnostics: warnings };
    }
    const olds = prior ? propsOf(type, prior, priorPrivate) : {};
    // The configuration's values are known now; check() normalizes them exactly as at plan time.
    const source = { ...planned, ...Object.fromEntries(Object.entries(cfg ?? {}).filter(([, v]) => v !== null)) };
    const candidate = withIdentity(type, inputsOf(type, source), prior ? priorPrivate : {});
    // A new state entry gets a key of its own: what it adopts, no other entry of this apply may delete.
    const holder = prior ? holderOf(type, priorPrivate, olds) : newHolder(type, candidate);
    const checked = await core.check(kind, { holder, olds, news: candidate });
    if (!checked.inputs) return { diagnostics: failureDiagnostics(type, checked.failures) };
    const news = checked.inputs;
    let id: string;
    let state: Props;
    if (!prior) {
      stopper.throwIfStopped();
      try {
        ({ id, state } = await core.create(kind, { holder, inputs: news }));
      } catch (err) {
        throw withCreateAdvice(type, err);
      }
    } else {
      stopper.throwIfStopped();
      id = String(prior.id);
      ({ state } = await core.update(kind, { holder, id, olds, news }));
    }
    const kept = { ...state };
    delete kept.__provider;
    return { newState: dv(stateOf(type, id, kept, planned), type.objectType), private: encodePrivate(type, { ...kept, holder: holder.key }) };
  }
}

/**
 * The warning of a delete the core kept: a create of this apply returned this very object (it found
 * it under the name it was to create, made from the same values, and adopted it). tofu asks for a
 * create first and then deletes the old object under `create_before_destroy` (with `-replace`, or a
 * tainted object), and when a resource's address changed without a `moved` block (create the new
 * address, destroy the old). Deleting it would leave the new state naming an object that is gone.
 */
function abandonedWarning(type: TfResourceType, id: string): Diagnostic {
  return {
    severity: 2,
    summary: `clusterform: left ${type.name} ${JSON.stringify(id)} on the platform`,
    detail: 'Its deletion_policy is "abandon": tofu forgot it and nothing was deleted. `tofu import` takes it back under management.',
  };
}

function keptWarning(type: TfResourceType, id: string): Diagnostic {
  return {
    severity: 2,
    summary: `clusterform: kept ${type.name} ${JSON.stringify(id)} instead of deleting it`,
    detail:
      `A create of this apply returned this very object: it found it under the name it was to create, made from the same values, and adopted it. ` +
      `Deleting it now would leave the new state naming an object that is gone, so it was not deleted and tofu forgets only the old entry. ` +
      `This happens with lifecycle { create_before_destroy = true } when a replacement keeps the name (tofu apply -replace, a tainted object), ` +
      `and when a resource's address changes without a moved block. The object was not replaced: to replace it, remove create_before_destroy ` +
      `(the old object is then destroyed first) or give the resource another name; to rename an address, add a moved block.`,
  };
}

/**
 * A create refused because an object of its identity exists that it may not adopt: in HCL that is
 * most often the live object a `create_before_destroy` replacement with the same name replaces
 * (its values that force replacement differ, so its ownership marker does). Nothing was changed.
 */
function withCreateAdvice(type: TfResourceType, err: unknown): unknown {
  // By shape, not instanceof: the provider's start path loads no handler code (see tools/bundle).
  if (!(err instanceof Error && err.name === "ClusterformError" && (err as { code?: unknown }).code === "AlreadyExists")) return err;
  return new Error(
    `${err.message}. In OpenTofu/Terraform (${type.name}): an object of this name that this configuration made with other values that force replacement ` +
      "is the object a create_before_destroy replacement is replacing, and the two cannot coexist: nothing was changed. Remove create_before_destroy " +
      "from the resource's lifecycle block (the old object is then destroyed first) or give the resource another name. An object made elsewhere: " +
      "choose another name, or bring it under this configuration with tofu import.",
  );
}

/** GetProviderSchema's answer, from every kind's definition (the build stores it: schema-cache.ts). */
export async function providerSchema() {
  const types = await resourceTypes();
  const { allKinds } = await import("../../kinds");
  const dataSources = buildDataSources(await allKinds());
  return {
    provider: {
      block: {
        attributes: PROVIDER_ATTRIBUTES.map((a) => stringAttribute(a.name, a.description, a.sensitive)),
        description: "Endpoints and credentials; each unset attribute falls back to the environment variables the Pulumi provider reads.",
      },
    },
    resourceSchemas: Object.fromEntries([...types.values()].map((type) => [type.name, schemaOf(type)])),
    dataSourceSchemas: Object.fromEntries([...dataSources.values()].map(({ type }) => [type.name, schemaOf(type)])),
    serverCapabilities: { getProviderSchemaOptional: true, planDestroy: true },
  };
}

const NESTING = { object: 1, list: 2, map: 4 } as const; // tfplugin6.Schema.Object.NestingMode: SINGLE, LIST, MAP

/** One attribute as the schema declares it: objects (alone, in lists, in maps) as nested attributes. */
function attributeSchema(a: TfAttribute): Record<string, unknown> {
  const base = { name: a.name, description: a.description, required: a.required, optional: a.optional, computed: a.computed, sensitive: a.sensitive, deprecated: a.retired !== undefined };
  const node = a.node;
  const objectNode = node.kind === "object" ? node : (node.kind === "list" || node.kind === "map") && node.of.kind === "object" ? node.of : undefined;
  if (objectNode && objectNode.kind === "object") {
    return { ...base, nestedType: { attributes: objectNode.attributes.map(attributeSchema), nesting: NESTING[node.kind as keyof typeof NESTING] } };
  }
  return { ...base, type: new TextEncoder().encode(JSON.stringify(ctyOf(node))) };
}

/** Terraform convention: `timeouts { create = "45m" }` is a block, as in every major provider. */
const BLOCKS = new Set(["timeouts"]);

function schemaOf(type: TfResourceType) {
  const blockTypes = type.attributes
    .filter((a) => BLOCKS.has(a.name) && a.node.kind === "object")
    .map((a) => ({
      typeName: a.name,
      nesting: 1, // tfplugin6.Schema.NestedBlock.NestingMode.SINGLE
      block: { attributes: (a.node.kind === "object" ? a.node.attributes : []).map(attributeSchema), description: a.description },
    }));
  const attributes = type.attributes.filter((a) => !(BLOCKS.has(a.name) && a.node.kind === "object")).map(attributeSchema);
  return { version: BigInt(type.schemaVersion), block: { attributes, blockTypes, description: type.description } };
}

/**
 * A configuration still setting an attribute a release retired (schema.ts `retired`): one failure
 * each, naming what to write instead, the value converted as the release's migration converts the
 * stored one (`timeout = 1800` is `action_timeout = "30m"`).
 */
function retiredFailures(type: TfResourceType, kind: Kind, config: TfObject): { property: string; reason: string }[] {
  return type.attributes
    .filter((a) => a.retired !== undefined && config[a.name] !== null && config[a.name] !== undefined)
    .map((a) => {
      const { news } = retiredInputs(kind.migrations, new Set(Object.keys(kind.allInputs)), { [a.field]: toHandler(a.node, config[a.name]) });
      const instead = Object.entries(news)
        .map(([field, value]) => `${attributeName(field, kind.allInputs[field] ?? {})} = ${value === UNKNOWN ? "(a known value)" : JSON.stringify(value)}`)
        .join(", ");
      return { property: a.field, reason: `${a.name} was replaced in ${a.retired?.release} (${a.retired?.why}): write ${instead} instead` };
    });
}

import type * as pulumi from "@pulumi/pulumi";
import { isDeepStrictEqual } from "node:util";
import { type ConfigReader, PLATFORMS, resolveEndpoint } from "../../core/config";
import { cancelAllWaits } from "../../core/retry";
import type { Props } from "../../core/contract";
import type { Kind } from "../../core/definition/kind";
import { failureInEngineNames, fieldsFromEngineNames, fieldsToEngineNames, fromEngineNames, hiddenOf, toEngineNames } from "../../core/definition/names";
import type { Holder } from "../../core/engine";
import { Holds, holdStoreFor } from "../../core/holds";
import { type Core, createCore } from "../../core/runtime";
import { importIdentityOf } from "../../core/import";
import { IMPORT_UNREPORTED } from "../../core/unreported";
import { kindOf } from "../../kinds";
import { forEngine, partialStateForEngine } from "../pulumi-common/answers";
import { reporterFor } from "../pulumi-common/engine-log";
import { NATIVE_ENGINE } from "./engine";
import { markSecret, unwrapSecrets } from "./secrets";
import { configFromRequest, type ConfigureRequestLike } from "./provider-config";
import { type RequestHooks, takeCurrentRequest, takeDiffOldInputs } from "./server-hooks";
import { GET_MARKER, kindTypeOf, lookupOfToken, secretOutputsOf, secretResultsOf } from "./tokens";
import { parseUrn } from "./urn";

/*
 * The native plugin's provider object (served by `@pulumi/pulumi/provider`'s `main`), translated to
 * and from the core (core/runtime.ts). What this adapter alone knows: URNs (the identity the dynamic
 * SDK sends as inputs comes from them, and they are the holder keys), Pulumi names (`owner` is a
 * job's `jobOwner`), secret wrappers, the request timeout (`customTimeouts`), and state written by
 * the dynamic provider (a resource moved to the native class by alias: definition keys, `__provider`).
 */

type Provider = pulumi.provider.Provider;

/** Inputs the plugin derives itself from the URN or that only the dynamic provider keeps: a program's own values are replaced. */
const DERIVED = ["resourceName", "resourceUrn", "deleteBeforeReplace", "__provider"] as const;

function withoutDerived(props: Props): Props {
  const rest = { ...props };
  for (const key of DERIVED) delete rest[key];
  return rest;
}

/** A resource's kind, from its URN's type token. */
function kindOfUrn(urn: string): Promise<Kind> {
  return kindOf(kindTypeOf(parseUrn(urn).type));
}

function holderOf(urn: string): Holder {
  return { key: urn, label: urn };
}

/**
 * Engine properties (Pulumi names) to the definitions' keys, with the identity the URN gives. State
 * written by the dynamic provider (it has `__provider`) already uses definition keys. The hidden
 * `owner` marker never comes from the engine.
 */
function inward(kind: Kind, urn: string, props: Props): Props {
  const renamed = "__provider" in props ? withoutDerived(props) : fromEngineNames(kind, withoutDerived(props), "pulumi");
  const { owner, resourceName } = importIdentityOf(urn);
  return { ...renamed, owner, resourceName };
}

/** What the core answers, in Pulumi names; hidden values the URN does not give (autoNamed, derived ids) kept under their own names. */
function outward(kind: Kind, props: Props): Props {
  const plain = withoutDerived(props);
  const visible = toEngineNames(kind, plain, "pulumi");
  for (const [key, value] of Object.entries(hiddenOf(kind, plain))) {
    if (key !== "owner" && key !== "resourceName" && !(key in visible)) visible[key] = value;
  }
  return visible;
}

/** Properties for the engine: in Pulumi names, secret where the inputs were and where the kind's outputs always are. */
function answer(kind: Kind, props: Props, secretKeys: Iterable<string>): Props {
  return markSecret(outward(kind, props), [...secretKeys, ...secretOutputsOf(kind)]);
}

/** One plugin process: the provider object `@pulumi/pulumi/provider`'s `main` serves and the request hooks (server-hooks.ts) over the same core. */
export interface NativePlugin {
  provider: Provider;
  hooks: RequestHooks;
}

/**
 * The plugin of one process, over a core of its own (held objects, replacement orders, imports of
 * this run): main.ts serves one per process, as the engine starts one per run; tests build one per
 * simulated run.
 */
export function nativePlugin(version: string, schema: () => Promise<string>): NativePlugin {
  const core: Core = createCore({
    engine: NATIVE_ENGINE,
    holds: new Holds(NATIVE_ENGINE, holdStoreFor(NATIVE_ENGINE, "pulumi")),
    reporterFor: (holder) => reporterFor({ resourceUrn: holder?.key }),
  });
  /**
   * URNs imported in this process (a Read without properties), with the inputs their platform cannot
   * report, in Pulumi names. `pulumi import` then checks the read inputs (as both olds and news):
   * their missing required inputs are the platform's silence, not a provider bug as the engine would
   * say, so that check leaves them out; the Read has already warned, naming them.
   */
  const importedUnreported = new Map<string, Set<string>>();
  const hooks: RequestHooks = {
    configure: (req) => core.configure(configFromRequest(req as ConfigureRequestLike)),
    checkConfig: (_olds, news) => checkProviderConfig(news),
    cancel: () => cancelAllWaits(),
  };
  const provider: Provider = {
    version,
    getSchema: schema,
    async check(urn, olds, news) {
      const kind = await kindOfUrn(urn);
      const o = unwrapSecrets(olds);
      const n = unwrapSecrets(news);
      const hadOlds = Object.keys(o.plain).length > 0;
      const result = await core.check(kind, { holder: holderOf(urn), olds: hadOlds ? inward(kind, urn, o.plain) : {}, news: inward(kind, urn, n.plain) });
      if (!result.inputs) {
        const failures = result.failures.map(forEngine).map((f) => failureInEngineNames(kind, f, "pulumi"));
        const unreported = hadOlds && isDeepStrictEqual(o.plain, n.plain) ? importedUnreported.get(urn) : undefined;
        const shown = unreported ? failures.filter((f) => !unreported.has(f.property.split(/[.[]/)[0])) : failures;
        return { inputs: news, failures: shown };
      }
      return { inputs: markSecret(outward(kind, result.inputs), n.secretKeys), failures: [] };
    },
    async diff(id, urn, olds, news) {
      // After an import, the old inputs hold what the platform could not report (the program's values
      // once an update ran): only those fields are taken over the old outputs, so drift stays visible.
      const oldInputs = unwrapSecrets(takeDiffOldInputs()).plain;
      const oldOutputs = unwrapSecrets(olds).plain;
      const unreported = Array.isArray(oldOutputs[IMPORT_UNREPORTED]) ? (oldOutputs[IMPORT_UNREPORTED] as string[]) : [];
      const taken = Object.fromEntries(unreported.filter((f) => oldInputs[f] !== undefined).map((f) => [f, oldInputs[f]]));
      const kind = await kindOfUrn(urn);
      const before = inward(kind, urn, { ...oldOutputs, ...taken });
      const after = inward(kind, urn, unwrapSecrets(news).plain);
      const result = await core.diff(kind, { holder: holderOf(urn), id, olds: before, news: after });
      const replacing = result.replaces.length > 0;
      return { changes: result.changes, replaces: result.replaces, deleteBeforeReplace: replacing && result.deleteFirst };
    },
    async create(urn, inputs) {
      const request = takeCurrentRequest();
      const kind = await kindOfUrn(urn);
      const { plain, secretKeys } = unwrapSecrets(inputs);
      try {
        const made = await core.create(kind, { holder: holderOf(urn), inputs: inward(kind, urn, plain), timeoutSeconds: request?.timeoutSeconds });
        return { id: made.id, outs: answer(kind, made.state, secretKeys) };
      } catch (err) {
        throw partialStateForEngine(err, {}, (props) => answer(kind, props, secretKeys));
      }
    },
    async read(id, urn, props) {
      const kind = await kindOfUrn(urn);
      const { plain, secretKeys } = unwrapSecrets(props ?? {});
      if (plain[GET_MARKER] === true) {
        // A native class's static get: the live object as a state, read only and held by nothing.
        const seen = await core.observe(kind, { id });
        return { id: seen.id, props: answer(kind, seen.state, []) };
      }
      if (Object.keys(plain).length === 0) {
        // Import (`pulumi import`, the `import` option): the engine sends the id alone.
        const imported = await core.import(kind, { id, identity: importIdentityOf(urn), holder: holderOf(urn) });
        await warnUnreported(urn, kind, imported.id, imported.props[IMPORT_UNREPORTED]);
        return { id: imported.id, props: answer(kind, imported.props, []), inputs: answer(kind, imported.inputs, []) };
      }
      const live = await core.read(kind, { holder: holderOf(urn), id, state: inward(kind, urn, plain) });
      if (!live) return { id: "", props: {} };
      // State moved from a dynamic resource loses its `__provider` text and old URN here.
      return { id: live.id, props: answer(kind, live.state, secretKeys) };
    },
    async update(id, urn, olds, news) {
      const request = takeCurrentRequest();
      const kind = await kindOfUrn(urn);
      const o = unwrapSecrets(olds);
      const n = unwrapSecrets(news);
      const secretKeys = new Set([...o.secretKeys, ...n.secretKeys]);
      try {
        const updated = await core.update(kind, { holder: holderOf(urn), id, olds: inward(kind, urn, o.plain), news: inward(kind, urn, n.plain), timeoutSeconds: request?.timeoutSeconds });
        return { outs: answer(kind, updated.state, secretKeys) };
      } catch (err) {
        throw partialStateForEngine(err, {}, (props) => answer(kind, props, secretKeys));
      }
    },
    // A function (`clusterform:<platform>:get<Name>`): a lookup of the core, which only reads. A missing
    // object is an error naming the kind, the key and the endpoint; bad arguments are check failures.
    async invoke(token, inputs) {
      const { kind, lookup } = await lookupOfToken(token);
      const args = fieldsFromEngineNames(lookup.args, unwrapSecrets(inputs).plain, "pulumi");
      const outcome = await core.lookup(kind, { name: lookup.name, args });
      if (!outcome.result) return { outputs: {}, failures: outcome.failures.map(forEngine).map((f) => ({ property: f.property, reason: f.reason })) };
      return { outputs: markSecret(fieldsToEngineNames(lookup.result, outcome.result, "pulumi"), secretResultsOf(lookup)) };
    },
    async delete(id, urn, props) {
      const request = takeCurrentRequest();
      const kind = await kindOfUrn(urn);
      await core.delete(kind, { holder: holderOf(urn), id, state: inward(kind, urn, unwrapSecrets(props).plain), timeoutSeconds: request?.timeoutSeconds });
    },
  };
  return { provider, hooks };

  /** Remembers and names, on the resource's row, the inputs an import could not read from the platform. */
  async function warnUnreported(urn: string, kind: Kind, id: string, unreported: unknown): Promise<void> {
    if (!Array.isArray(unreported) || unreported.length === 0) return;
    const names = unreported.map((f) => failureInEngineNames(kind, { property: String(f), reason: "" }, "pulumi").property);
    importedUnreported.set(urn, new Set(names));
    await reporterFor({ resourceUrn: urn }).warn(
      `${kind.type} ${JSON.stringify(id)} is imported, but the platform does not report ${names.map((n) => `\`${n}\``).join(", ")}: ` +
        "the program must give them as they are on the platform (the code `pulumi import` prints shows them empty)",
    );
  }
}

/**
 * CheckConfig of an explicit provider's inputs (and the default provider's stack config): the
 * endpoints must be usable URLs; every failure names the key and the value.
 */
export function checkProviderConfig(news: Props): { inputs: Props; failures: { property: string; reason: string }[] } {
  const { plain } = unwrapSecrets(news);
  const reader: ConfigReader = {
    get: (key) => {
      const v = plain[key.replace(/^clusterform:/, "")];
      return typeof v === "string" ? v : undefined;
    },
  };
  const failures: { property: string; reason: string }[] = [];
  for (const platform of PLATFORMS) {
    try {
      resolveEndpoint(platform, reader, {});
    } catch (err) {
      const property = typeof plain[`${platform}Endpoint`] === "string" ? `${platform}Endpoint` : "endpoint";
      failures.push({ property, reason: err instanceof Error ? err.message : String(err) });
      break;
    }
  }
  return { inputs: news, failures };
}

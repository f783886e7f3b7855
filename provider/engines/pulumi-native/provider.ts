import type * as pulumi from "@pulumi/pulumi";
import { type ConfigReader, PLATFORMS, resolveEndpoint } from "../../core/config";
import { ClusterformError } from "../../core/errors";
import { failureInEngineNames, fromEngineNames, hiddenOf, toEngineNames } from "../../core/definition/names";
import { reporterFor } from "../pulumi-common/engine-log";
import { announcePlan } from "../../core/plan/announce";
import { importerFor } from "../../kinds/imports";
import { IMPORT_UNREPORTED } from "../../kinds/kit";
import { kindOf as definitionOf } from "../../kinds/kinds";
import { handlerFor, type ResourceHandler } from "../../registry";
import "../../kinds";
import { effectiveTimeouts } from "./timeouts";
import { identityFromUrn, parseUrn } from "./urn";
import { isDeepStrictEqual } from "node:util";
import { markSecret, unwrapSecrets } from "./secrets";
import { kindOf } from "./tokens";
import { takeCurrentRequest, takeDiffOldInputs } from "./server-hooks";

type Props = Record<string, unknown>;
type Provider = pulumi.provider.Provider;

/** Inputs the plugin derives itself from the URN or sets itself: a program's own values are replaced. */
const DERIVED = ["resourceName", "resourceUrn", "deleteBeforeReplace", "__provider"] as const;

function withoutDerived(props: Props): Props {
  const rest = { ...props };
  for (const key of DERIVED) delete rest[key];
  return rest;
}

/**
 * Engine properties (Pulumi names, e.g. a job's `owner`) to what the handlers hold (definition keys,
 * `jobOwner`), with the identity the URN gives. State written by the dynamic provider (it has
 * `__provider`) already uses definition keys. The hidden `owner` marker never comes from the engine.
 */
function inward(handlerType: string, urn: string, props: Props): Props {
  const kind = definitionOf(handlerType);
  const dynamicState = "__provider" in props;
  const renamed = kind && !dynamicState ? fromEngineNames(kind, withoutDerived(props), "pulumi") : withoutDerived(props);
  return { ...renamed, ...identityFromUrn(urn) };
}

/** What the handlers return, in Pulumi names; hidden values the URN does not give (autoNamed, derived ids) kept under their own names. */
function outward(handlerType: string, props: Props): Props {
  const kind = definitionOf(handlerType);
  const plain = withoutDerived(props);
  if (!kind) return plain;
  const visible = toEngineNames(kind, plain, "pulumi");
  for (const [key, value] of Object.entries(hiddenOf(kind, plain))) {
    if (key !== "owner" && key !== "resourceName" && !(key in visible)) visible[key] = value;
  }
  return visible;
}

/**
 * What the engine gets back for a resource: the handler's properties with secrets marked: those
 * that were secret among the inputs, and the kind's own secret outputs (kubeconfigs).
 */
function marked(type: string, props: Props, secretKeys: Set<string>): Props {
  return markSecret(props, [...secretKeys, ...kindOf(type).secretOutputs]);
}

/** Rewrites an error carrying partial state (created, not ready) so its properties keep secrets secret. */
function secretSafeError(type: string, err: unknown, secretKeys: Set<string>): unknown {
  const e = err as { id?: string; properties?: Props };
  if (err instanceof Error && e.id && e.properties) e.properties = marked(type, e.properties, secretKeys);
  return err;
}

/**
 * Which replacements may create the new object first: field-change replacements whose new object
 * has another identity (a derived name that hashes the changed field). The kit's own diff decides
 * identity and refuses a create-first replacement of the same identity (REPLACEMENT_CLASH): then
 * the old object is deleted first, as in dynamic mode. See docs/native-plugin.md.
 */
async function diffWithOrder(urn: string, handlerType: string, id: string, olds: Props, news: Props): Promise<pulumi.provider.DiffResult> {
  const h = handler(handlerType);
  try {
    return await h.diff(id, olds, { ...news, deleteBeforeReplace: false });
  } catch (err) {
    if (err instanceof ClusterformError && err.platformCode === "REPLACEMENT_CLASH") {
      // Delete-first: the old object is gone before create runs, so create may adopt as for a new resource.
      replacing.delete(urn);
      return h.diff(id, olds, news);
    }
    throw err;
  }
}

let providerConfig: ConfigReader = { get: () => undefined };
const configured = new WeakSet<ResourceHandler>();

/** Takes the provider's configuration (the Configure request); handlers get it at their first use. */
export function setProviderConfig(config: ConfigReader): void {
  providerConfig = config;
}

/** The handler of a kind, configured with the provider's configuration (loads its platform's code on first use). */
function handler(handlerType: string): ResourceHandler {
  const h = handlerFor(handlerType);
  if (!configured.has(h)) {
    void h.configure({ get: (key) => providerConfig.get(key) });
    configured.add(h);
  }
  return h;
}

/** `outs` with the user's own `timeouts` (not the effective ones an operation ran with). */
function withOwnTimeouts(outs: Props, timeouts: unknown): Props {
  const { timeouts: _ran, ...rest } = outs;
  return timeouts === undefined ? rest : { ...rest, timeouts };
}

/**
 * URNs imported in this process (a Read without properties), with the inputs their platform cannot
 * report, in Pulumi names. `pulumi import` then checks the read inputs (as both olds and news):
 * their missing required inputs are the platform's silence, not a provider bug as the engine would
 * say, so that check leaves them out; the Read has already warned, naming them.
 */
const importedUnreported = new Map<string, Set<string>>();

/** Replaced URNs whose Check with old inputs ran in this process: their second Check (no olds) is a replacement's. */
const replacing = new Set<string>();

/** The provider object `@pulumi/pulumi/provider`'s `main` serves. */
export function nativeProvider(version: string, schema: () => Promise<string>): Provider {
  return {
    version,
    getSchema: schema,
    async check(urn, olds, news) {
      const { handlerType } = kindOf(parseUrn(urn).type);
      const o = unwrapSecrets(olds);
      const n = unwrapSecrets(news);
      const hadOlds = Object.keys(o.plain).length > 0;
      // A create-first replacement's new object is checked twice: with the old inputs (then diff),
      // and without (the engine recomputes its defaults). The second check must keep the order.
      if (hadOlds) replacing.add(urn);
      const order = hadOlds || replacing.has(urn) ? { deleteBeforeReplace: false } : {};
      const inputs = { ...inward(handlerType, urn, n.plain), ...order };
      const result = await handler(handlerType).check(hadOlds ? inward(handlerType, urn, o.plain) : {}, inputs);
      if (result.failures && result.failures.length > 0) {
        const kind = definitionOf(handlerType);
        const failures = kind ? result.failures.map((f) => failureInEngineNames(kind, f, "pulumi")) : result.failures;
        const unreported = hadOlds && isDeepStrictEqual(o.plain, n.plain) ? importedUnreported.get(urn) : undefined;
        const shown = unreported ? failures.filter((f) => !unreported.has(f.property.split(/[.[]/)[0])) : failures;
        return { inputs: news, failures: shown };
      }
      // The order stays in this process (`replacing`): returned as an input, the engine would show
      // it as a changed property in the preview.
      const kept = outward(handlerType, (result.inputs ?? inputs) as Props);
      return { inputs: markSecret(kept, n.secretKeys), failures: [] };
    },
    async diff(id, urn, olds, news) {
      // After an import, the old inputs hold what the platform could not report (the program's values
      // once an update ran): only those fields are taken over the old outputs, so drift stays visible.
      const oldInputs = unwrapSecrets(takeDiffOldInputs()).plain;
      const oldOutputs = unwrapSecrets(olds).plain;
      const unreported = Array.isArray(oldOutputs[IMPORT_UNREPORTED]) ? (oldOutputs[IMPORT_UNREPORTED] as string[]) : [];
      const taken = Object.fromEntries(unreported.filter((f) => oldInputs[f] !== undefined).map((f) => [f, oldInputs[f]]));
      const { handlerType } = kindOf(parseUrn(urn).type);
      const before = inward(handlerType, urn, { ...oldOutputs, ...taken });
      const after = inward(handlerType, urn, unwrapSecrets(news).plain);
      const result = await diffWithOrder(urn, handlerType, id, before, after);
      // The planned platform calls go on the resource's row, as in dynamic mode.
      if (result.changes) await announcePlan(handlerType, id, before, after, result);
      return result;
    },
    async create(urn, inputs) {
      const request = takeCurrentRequest();
      const type = parseUrn(urn).type;
      const { handlerType } = kindOf(type);
      const { plain, secretKeys } = unwrapSecrets(inputs);
      const props: Props = { ...inward(handlerType, urn, plain), ...orderOf(urn) };
      try {
        const result = await handler(handlerType).create(effectiveTimeouts(props, "create", request));
        return { id: result.id, outs: marked(type, outward(handlerType, withOwnTimeouts(result.outs as Props, props.timeouts)), secretKeys) };
      } catch (err) {
        const e = err as { properties?: Props };
        if (e && typeof e === "object" && e.properties) e.properties = outward(handlerType, e.properties);
        throw secretSafeError(type, err, secretKeys);
      }
    },
    async read(id, urn, props) {
      const type = parseUrn(urn).type;
      const { handlerType } = kindOf(type);
      const { plain, secretKeys } = unwrapSecrets(props ?? {});
      if (Object.keys(plain).length === 0) {
        // Import (`pulumi import`, the `import` option): the engine sends the id alone.
        const { owner, resourceName } = identityFromUrn(urn);
        const imported = await (await importerFor(handlerType)).importObject(id, { owner, resourceName }, { get: (key) => providerConfig.get(key) });
        await warnUnreported(urn, handlerType, imported.id, imported.props[IMPORT_UNREPORTED]);
        return { id: imported.id, props: marked(type, outward(handlerType, imported.props), new Set()), inputs: marked(type, outward(handlerType, imported.inputs), new Set()) };
      }
      const result = await handler(handlerType).read(id, inward(handlerType, urn, plain));
      if (!result.id) return { id: "", props: {} };
      // State moved from a dynamic resource loses its `__provider` text and old URN here.
      const outs = marked(type, outward(handlerType, result.props as Props), secretKeys);
      const inputs = result.inputs ? marked(type, outward(handlerType, result.inputs as Props), secretKeys) : undefined;
      return { id: result.id, props: outs, inputs };
    },
    async update(id, urn, olds, news) {
      const request = takeCurrentRequest();
      const type = parseUrn(urn).type;
      const { handlerType } = kindOf(type);
      const o = unwrapSecrets(olds);
      const n = unwrapSecrets(news);
      const props: Props = { ...inward(handlerType, urn, n.plain), ...orderOf(urn) };
      const result = await handler(handlerType).update(id, inward(handlerType, urn, o.plain), effectiveTimeouts(props, "update", request));
      const outs = outward(handlerType, withOwnTimeouts(result.outs as Props, props.timeouts));
      return { outs: marked(type, outs, new Set([...o.secretKeys, ...n.secretKeys])) };
    },
    async delete(id, urn, props) {
      const request = takeCurrentRequest();
      const { handlerType } = kindOf(parseUrn(urn).type);
      await handler(handlerType).delete(id, effectiveTimeouts(inward(handlerType, urn, unwrapSecrets(props).plain), "delete", request));
    },
  };
}

/** Remembers and names, on the resource's row, the inputs an import could not read from the platform. */
async function warnUnreported(urn: string, handlerType: string, id: string, unreported: unknown): Promise<void> {
  const kind = definitionOf(handlerType);
  if (!kind || !Array.isArray(unreported) || unreported.length === 0) return;
  const names = unreported.map((f) => failureInEngineNames(kind, { property: String(f), reason: "" }, "pulumi").property);
  importedUnreported.set(urn, new Set(names));
  await reporterFor({ resourceUrn: urn }).warn(
    `${handlerType} ${JSON.stringify(id)} is imported, but the platform does not report ${names.map((n) => `\`${n}\``).join(", ")}: ` +
      "the program must give them as they are on the platform (the code `pulumi import` prints shows them empty)",
  );
}

/** The replacement order check chose for this resource in this process (create-first while `replacing` holds it). */
function orderOf(urn: string): Props {
  return replacing.has(urn) ? { deleteBeforeReplace: false } : {};
}

/**
 * CheckConfig of an explicit provider's inputs (and the default provider's stack config): the
 * endpoints must be usable URLs; every failure names the key and the value.
 */
export function checkProviderConfig(news: Props): { inputs: Props; failures: { property: string; reason: string }[] } {
  const { plain } = unwrapSecrets(news);
  const reader: ConfigReader = { get: (key) => {
    const v = plain[key.replace(/^clusterform:/, "")];
    return typeof v === "string" ? v : undefined;
  } };
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

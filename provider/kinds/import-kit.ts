import { type ConfigReader, type Platform, resolveEndpoint } from "../core/config";
import type { Kind } from "../core/definition/kind";
import { ClusterformError } from "../core/errors";
import { ownerMarker } from "../core/naming";
import { reporterFor } from "../engines/pulumi-common/engine-log";
import type { ResourceHandler } from "../registry";
import { IMPORT_UNREPORTED, type OperationContext } from "./kit";

// Import of an existing platform object by id (`pulumi import <token> <name> <id>`, the `import`
// resource option). The engine sends Read with the id and no properties; the answer must hold the
// live object's inputs, normalized exactly as `check` normalizes program inputs, so that program
// code written from them previews with no change, plus the outputs. Import only reads.

type Props = Record<string, unknown>;
const q = (s: string) => JSON.stringify(s);

/** What the engine knows of the resource being imported; in native mode from its URN. */
export interface ImportIdentity {
  /** The ownership marker of the resource (`ownerMarker(project, stack, name)`, as the SDK sends it). */
  owner: string;
  /** The Pulumi resource name. */
  resourceName: string;
}

/**
 * The identity of the resource a URN names, as the SDK would send it for that resource:
 * `urn:pulumi:<stack>::<project>::<type>::<name>` gives `ownerMarker(project, stack, name)` and the name.
 * @throws Error naming the URN when it is not of that form.
 */
export function importIdentityOf(urn: string): ImportIdentity {
  const parts = urn.startsWith("urn:pulumi:") ? urn.slice("urn:pulumi:".length).split("::") : [];
  if (parts.length < 4 || parts.slice(0, 3).some((p) => p === "") || parts[3] === "") {
    throw new Error(`clusterform: cannot read the resource's identity from URN ${q(urn)}: expected urn:pulumi:<stack>::<project>::<type>::<name>`);
  }
  // The name is everything after the type: a name may itself hold "::".
  const [stack, project, , ...name] = parts;
  const resourceName = name.join("::");
  return { owner: ownerMarker(project, stack, resourceName), resourceName };
}

/**
 * The import facts of a kind, from its definition (provider/kinds/<api>/<kind>/schema.ts), where
 * each is written once: its type, the id's shape and example, the inputs its platform cannot report.
 * @throws Error when the definition states no import id (a programming error).
 */
export function importFieldsOf(kind: Pick<Kind, "type" | "importId">): Pick<ImportDefinition, "kind" | "idShape" | "idExample" | "unreported"> {
  if (!kind.importId) throw new Error(`${kind.type}: the definition states no importId`);
  return { kind: kind.type, idShape: kind.importId.shape, idExample: kind.importId.example, unreported: kind.importId.unreported ?? [] };
}

/** What the platform reports of one object, as raw inputs and outputs. */
export interface LiveObject {
  /** The inputs the platform reports, in the SDK's names; without owner, resourceName and autoNamed. */
  inputs: Props;
  /** The outputs, as create records them (secrets such as a kubeconfig included: the schema marks them). */
  outputs: Props;
  /**
   * Inputs `check` reads as the old ones, for kinds whose check derives an id from them (a Peloton
   * pool's or job's UUID): the object's own id is kept instead of one derived for the importer. @default {}
   */
  prior?: Props;
  /** The inputs this object's platform could not report, when they differ by object. @default the definition's `unreported` */
  unreported?: readonly string[];
}

/** How one resource kind is imported. */
export interface ImportDefinition {
  /** The kind as users name it, e.g. `cmassh:Cluster`. */
  kind: string;
  /** The platform whose endpoint is read. */
  platform: Platform;
  /** The shape of the import id; a wrong shape fails before any call. */
  idPattern: RegExp;
  /** The import id in words, e.g. `the cluster name (a DNS-1123 label)`. */
  idShape: string;
  /** An import id of that shape. */
  idExample: string;
  /** Inputs the platform cannot report: they must be written in the program. */
  unreported: readonly string[];
  /**
   * Valid stand-ins for the required inputs among {@link unreported}, so that `check` can normalize
   * the reported ones; they never reach the result. @default {}
   */
  placeholders?: Props;
  /**
   * Reads the object with `id` (matching {@link idPattern}). Returns undefined when there is none.
   * Must only read.
   */
  read(ctx: OperationContext, id: string): Promise<LiveObject | undefined>;
}

/** What an import returns: the engine's Read answer. */
export interface ImportResult {
  /** The id the resource has in the state, equal to what `create` returns. */
  id: string;
  /** The state: the inputs, the outputs and, when some inputs could not be read, their names. */
  props: Props;
  /** The inputs, as `check` normalizes them. */
  inputs: Props;
}

/** Imports one kind's objects by id. */
export interface ImportHandler {
  /** The definition, for docs and callers that show the expected id. */
  readonly definition: ImportDefinition;
  /**
   * Imports the object `id`.
   * @param identity - owner marker and resource name; the native plugin takes them from the URN.
   * @param config - the stack or provider configuration (endpoints, credentials).
   * @throws Error naming the kind, the id and the expected shape when the id has the wrong shape
   * (before any call) or no such object exists; naming the endpoint when it cannot be reached.
   */
  importObject(id: string, identity: ImportIdentity, config: ConfigReader): Promise<ImportResult>;
}

/**
 * Builds the import of one kind over its handler: the handler's `check` normalizes the reported
 * inputs (so they are exactly what program code written from them checks to), and its name is
 * marked user-chosen (`autoNamed: false`): an imported object was named by whoever created it.
 */
export function defineImport(handler: ResourceHandler, def: ImportDefinition): ImportHandler {
  const expected = `the import id of ${def.kind} is ${def.idShape}, such as ${q(def.idExample)}`;
  return {
    definition: def,
    async importObject(id, identity, config) {
      if (typeof id !== "string" || !def.idPattern.test(id)) {
        throw importError(def, id, "InvalidArgument", "BAD_IMPORT_ID", `${q(String(id))} has the wrong shape: ${expected}`);
      }
      const ctx: OperationContext = { config, report: reporterFor({}) };
      let live: LiveObject | undefined;
      try {
        live = await def.read(ctx, id);
      } catch (err) {
        throw unreadable(def, id, config, err);
      }
      if (!live) {
        const where = resolveEndpoint(def.platform, config).url;
        throw importError(def, id, "NotFound", "IMPORT_NOT_FOUND", `no such object at ${where}; ${expected}`);
      }
      const raw = { ...def.placeholders, ...live.inputs, owner: identity.owner, resourceName: identity.resourceName };
      const checked = await handler.check(live.prior ? { ...live.prior, owner: identity.owner } : {}, raw);
      if (checked.failures && checked.failures.length > 0) {
        const reasons = checked.failures.map((f) => f.reason).join("; ");
        throw importError(def, id, "FailedPrecondition", "NOT_IMPORTABLE", `the object's settings are outside what Clusterform accepts: ${reasons}`);
      }
      const { __provider, ...normalized } = checked.inputs as Props;
      const unreported = (live.unreported ?? def.unreported).filter((field) => live.inputs[field] === undefined);
      const inputs = Object.fromEntries(Object.entries(normalized).filter(([field]) => !unreported.includes(field)));
      const marker = unreported.length > 0 ? { [IMPORT_UNREPORTED]: unreported } : {};
      return { id, props: { ...inputs, ...live.outputs, ...marker }, inputs };
    },
  };
}

function importError(def: ImportDefinition, id: unknown, code: "InvalidArgument" | "NotFound" | "FailedPrecondition", platformCode: string, message: string): ClusterformError {
  return new ClusterformError({ code, platformCode, operation: `importing ${def.kind} ${q(String(id))}`, platformMessage: message });
}

/** A failed read, restated so that it names the kind, the id and, when unreachable, the address. */
function unreadable(def: ImportDefinition, id: string, config: ConfigReader, err: unknown): ClusterformError {
  const cause = ClusterformError.from(err, `importing ${def.kind} ${q(id)}`);
  const where = cause.unreachable ? ` (${def.platform} endpoint ${resolveEndpoint(def.platform, config).url} unreachable)` : "";
  return new ClusterformError({
    code: cause.code,
    platformCode: cause.platformCode,
    operation: `importing ${def.kind} ${q(id)}${where}`,
    platformMessage: cause.message,
    cause: err,
    unreachable: cause.unreachable,
  });
}

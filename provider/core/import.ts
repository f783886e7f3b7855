import { type ConfigReader, type Platform, resolveEndpoint } from "./config";
import type { CheckOutcome, ImportDefinition, LiveObject, OperationContext, Props } from "./contract";
import type { Kind } from "./definition/kind";
import { ClusterformError } from "./errors";
import { ownerMarker } from "./naming";
import { IMPORT_UNREPORTED } from "./unreported";

// Import of an existing platform object by id (`pulumi import <token> <name> <id>`, the `import`
// resource option, `tofu import`). The answer holds the live object's inputs, normalized exactly as
// `check` normalizes program inputs, so that program code written from them previews with no
// change, plus the outputs. Import only reads.

const q = (s: string) => JSON.stringify(s);

/** What the engine knows of the resource being imported. */
export interface ImportIdentity {
  /** The ownership marker of the resource (`ownerMarker(project, stack, name)`, as the SDK sends it). */
  owner: string;
  /** The resource's name in the engine. */
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

/** What an import answers. */
export interface ImportResult {
  /** The id the resource has in the state, equal to what `create` returns. */
  id: string;
  /** The state: the inputs, the outputs and, when some inputs could not be read, their names. */
  props: Props;
  /** The inputs, as `check` normalizes them. */
  inputs: Props;
}

/**
 * Imports the object `id` of a kind: the kind's `check` normalizes the reported inputs (so they are
 * exactly what program code written from them checks to), and its name is marked user-chosen by the
 * check (an imported object was named by whoever created it).
 * @throws ClusterformError naming the kind, the id and the expected shape when the id has the wrong
 * shape (before any call) or no such object exists; naming the endpoint when it cannot be reached.
 */
export async function importObject(
  kind: Kind,
  def: ImportDefinition,
  id: string,
  identity: ImportIdentity,
  ctx: OperationContext,
  check: (olds: Props, news: Props) => Promise<CheckOutcome>,
): Promise<ImportResult> {
  const facts = kind.importId;
  if (!facts) throw new Error(`${kind.type}: the definition states no importId`);
  const expected = `the import id of ${kind.type} is ${facts.shape}, such as ${q(facts.example)}`;
  const live = await readLive(def, id, ctx, { doing: `importing ${kind.type} ${q(String(id))}`, expected, missingCode: "IMPORT_NOT_FOUND" });
  const raw = { ...def.placeholders, ...live.inputs, owner: identity.owner, resourceName: identity.resourceName };
  const checked = await check(live.prior ? { ...live.prior, owner: identity.owner } : {}, raw);
  if (!checked.inputs) {
    const reasons = checked.failures.map((f) => f.reason).join("; ");
    throw importError(`importing ${kind.type} ${q(id)}`, "FailedPrecondition", "NOT_IMPORTABLE", `the object's settings are outside what Clusterform accepts: ${reasons}`);
  }
  const unreported = (live.unreported ?? facts.unreported ?? []).filter((field) => live.inputs[field] === undefined);
  const inputs = Object.fromEntries(Object.entries(checked.inputs).filter(([field]) => !unreported.includes(field)));
  const marker = unreported.length > 0 ? { [IMPORT_UNREPORTED]: unreported } : {};
  return { id, props: { ...inputs, ...live.outputs, ...marker }, inputs };
}

/** How {@link readLive} names what it does in its errors. */
export interface ReadWording {
  /** What was being done: the kind and the id or key, e.g. `looking up cmassh:Cluster name "prod"`. */
  doing: string;
  /** What a valid id is, added to the errors of a wrong shape and (for an import) a missing object. */
  expected: string;
  /** The platform code of a missing object. @default "NOT_FOUND" */
  missingCode?: string;
}

/**
 * Reads the object `id` with the kind's import read, which only reads: an id of the wrong shape
 * fails before any call, a missing object and a failed read fail naming what was being done and
 * the platform's endpoint.
 * @throws ClusterformError InvalidArgument, NotFound, or the read's own code.
 */
export async function readLive(def: ImportDefinition, id: string, ctx: OperationContext, wording: ReadWording): Promise<LiveObject> {
  const { doing, expected } = wording;
  if (typeof id !== "string" || !def.idPattern.test(id)) {
    throw importError(doing, "InvalidArgument", "BAD_IMPORT_ID", `${q(String(id))} has the wrong shape: ${expected}`);
  }
  let live: LiveObject | undefined;
  try {
    live = await def.read(ctx, id);
  } catch (err) {
    throw unreadable(doing, def.platform, ctx.config, err);
  }
  if (!live) throw notFound(doing, def.platform, ctx.config, wording.missingCode === undefined ? undefined : { code: wording.missingCode, expected });
  return live;
}

/**
 * The error of an object that does not exist, naming what was being done and the platform's
 * endpoint. @param instead - another platform code and what a valid id is (an import's wording).
 */
export function notFound(doing: string, platform: Platform, config: ConfigReader, instead?: { code: string; expected: string }): ClusterformError {
  const where = resolveEndpoint(platform, config).url;
  if (instead) return importError(doing, "NotFound", instead.code, `no such object at ${where}; ${instead.expected}`);
  return importError(doing, "NotFound", "NOT_FOUND", `no such object at the ${platform} endpoint ${where}`);
}

function importError(doing: string, code: "InvalidArgument" | "NotFound" | "FailedPrecondition", platformCode: string, message: string): ClusterformError {
  return new ClusterformError({ code, platformCode, operation: doing, platformMessage: message });
}

/** A failed read, restated so that it names what was being done and, when unreachable, the address. */
export function unreadable(doing: string, platform: Platform, config: ConfigReader, err: unknown): ClusterformError {
  const cause = ClusterformError.from(err, doing);
  const where = cause.unreachable ? ` (${platform} endpoint ${resolveEndpoint(platform, config).url} unreachable)` : "";
  return new ClusterformError({
    code: cause.code,
    platformCode: cause.platformCode,
    operation: `${doing}${where}`,
    platformMessage: cause.message,
    cause: err,
    unreachable: cause.unreachable,
  });
}

import type { ImportDefinition, LiveObject, OperationContext, Props } from "./contract";
import type { Kind } from "./definition/kind";
import type { Lookup, ObjectLookup } from "./definition/lookup";
import { objectSchema } from "./definition/values";
import { notFound, readLive, unreadable } from "./import";
import { type CheckFailure, validateInputs } from "./validation";

// Runs a kind's lookups (definition/lookup.ts) and the `get` of a resource: reads only, through the
// kind's import read for one object, so a lookup, a `get` and an import read an object the same way.
// Nothing here records a hold (holds.ts): a lookup owns nothing, and the engine never deletes it.

const q = (s: string) => JSON.stringify(s);

/** What a lookup answers: its result, or the failures of its arguments (nothing was called then). */
export interface LookupOutcome {
  /** The result in the definitions' keys; undefined when an argument failed. */
  result?: Props;
  failures: CheckFailure[];
}

/** The identity the kinds' `check` gets for an observed object: no resource owns it, and nothing derived from it is kept. */
const OBSERVER = { owner: "0000000000000000", resourceName: "lookup" };

/**
 * The live object as state: its reported inputs, normalized as `check` normalizes a program's (so
 * the values read as a resource's would), and its outputs. An object whose settings `check` does
 * not accept is shown as reported. Hidden inputs and the import's stand-ins are left out.
 */
export function observedState(kind: Kind, def: ImportDefinition, live: LiveObject): Props {
  const raw = { ...def.placeholders, ...live.inputs, ...OBSERVER };
  const checked = validateInputs(kind.schema, raw).inputs as Props | undefined;
  const completed = checked && kind.complete ? kind.complete({ ...live.prior, owner: OBSERVER.owner }, checked as never, kind) : checked;
  const stand = Object.keys(def.placeholders ?? {}).filter((k) => live.inputs[k] === undefined);
  const inputs = Object.entries(completed ?? live.inputs).filter(([k]) => !(k in kind.hidden && !(k in kind.outputs)) && !stand.includes(k));
  return { ...Object.fromEntries(inputs), ...live.outputs };
}

/**
 * Reads the object `id` (its import id) into a state, owning nothing: the `get` of a resource.
 * @throws ClusterformError naming the kind, the id and the endpoint when there is no such object or the platform cannot be reached.
 */
export async function observe(kind: Kind, id: string, ctx: OperationContext): Promise<Props> {
  const def = await kind.importer();
  const live = await readLive(def, id, ctx, { doing: `reading ${kind.type} ${q(id)}`, expected: expectedId(kind) });
  return observedState(kind, def, live);
}

/**
 * Runs one lookup of a kind with the arguments (definition keys): validates them, then reads.
 * @throws ClusterformError naming the kind, the key and the endpoint when the object the arguments
 * name does not exist (a list with no match is an empty list) or the platform cannot be reached.
 */
export async function runLookup(kind: Kind, lookup: Lookup, args: Props, ctx: OperationContext): Promise<LookupOutcome> {
  const checked = validateInputs(objectSchema(lookup.args), args);
  if (!checked.inputs) return { failures: checked.failures };
  const given = checked.inputs as Props;
  const alternatives = lookup.form === "object" ? lookup.oneOf : undefined;
  if (alternatives && alternatives.filter((k) => given[k] !== undefined).length !== 1) {
    const names = alternatives.map((k) => `\`${k}\``).join(" or ");
    return { failures: [{ property: alternatives[0], reason: `give exactly one of ${names}, got ${alternatives.filter((k) => given[k] !== undefined).length}` }] };
  }
  const result = lookup.form === "object" ? await lookupObject(kind, lookup, given, ctx) : await lookupRead(kind, lookup, given, ctx);
  return { result, failures: [] };
}

async function lookupObject(kind: Kind, lookup: ObjectLookup, args: Props, ctx: OperationContext): Promise<Props> {
  const doing = `looking up ${kind.type} ${lookup.key(args)}`;
  let id = lookup.importId(args);
  if (id === undefined && lookup.find) {
    const find = await lookup.find();
    id = await find(ctx, args).catch((err) => {
      throw unreadable(doing, lookup.platform, ctx.config, err);
    });
    if (id === undefined) throw notFound(doing, lookup.platform, ctx.config);
  }
  const def = await kind.importer();
  const live = await readLive(def, String(id), ctx, { doing, expected: expectedId(kind) });
  return pickResult(lookup, { ...observedState(kind, def, live), id: String(id) });
}

async function lookupRead(kind: Kind, lookup: Extract<Lookup, { form: "read" }>, args: Props, ctx: OperationContext): Promise<Props> {
  const doing = lookup.key ? `looking up ${kind.type} ${lookup.key(args)}` : `${lookup.name} of ${kind.type}`;
  const read = await lookup.read();
  const result = await read(ctx, args).catch((err) => {
    throw unreadable(doing, lookup.platform, ctx.config, err);
  });
  if (result === undefined) throw notFound(doing, lookup.platform, ctx.config);
  return pickResult(lookup, result);
}

/** The result's own fields of what was read, absent ones left out. */
function pickResult(lookup: Lookup, values: Props): Props {
  return Object.fromEntries(Object.keys(lookup.result).filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));
}

function expectedId(kind: Kind): string {
  const facts = kind.importId;
  return facts ? `the id of ${kind.type} is ${facts.shape}, such as ${q(facts.example)}` : `an id of ${kind.type}`;
}

/**
 * The lookup of a kind by name.
 * @throws Error naming the kind's lookups when it has none of that name.
 */
export function lookupOf(kind: Kind, name: string): Lookup {
  const found = (kind.lookups ?? []).find((l) => l.name === name);
  if (!found) throw new Error(`clusterform: ${kind.type} has no lookup "${name}"; it has: ${(kind.lookups ?? []).map((l) => l.name).join(", ") || "none"}`);
  return found;
}

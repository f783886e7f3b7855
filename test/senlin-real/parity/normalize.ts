/**
 * Makes two servers' answers comparable: ids become placeholders numbered in the order they first
 * appear in a step's observation (so the n-th id a step shows is `<id:n>` on both servers), times become
 * `<time>`, the server's own address `<origin>`. What is left differs only where the servers do.
 */
const UUID = /\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b/gi;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;
/** Senlin's default member names (`node-$8R`): random on both servers. */
const RANDOM_NODE_NAME = /^node-[A-Za-z][A-Za-z0-9]{7}$/;

export class Normalizer {
  private readonly ids = new Map<string, string>();

  constructor(private readonly origin: string) {}

  /**
   * Starts the numbering over: each step's observation is numbered on its own, so an id one server
   * shows and the other does not (a trust, an extra event) shifts nothing after it.
   */
  restart(): void {
    this.ids.clear();
  }

  /** The placeholder of an id (a UUID, with or without dashes, or Keystone's 32-hex ids). */
  private placeholder(id: string): string {
    const key = id.toLowerCase().replace(/-/g, "");
    let name = this.ids.get(key);
    if (!name) {
      name = `<id:${this.ids.size + 1}>`;
      this.ids.set(key, name);
    }
    return name;
  }

  /**
   * The placeholder of an 8-character short id (Senlin's names such as `cluster_resize_1a2b3c4d`):
   * the id's it begins, else `<short>`. An event's start names its action so, and a listing of
   * events shows no action id to tell which: numbering them would only number their order, which
   * the real server does not keep within a second.
   */
  private short(prefix: string): string {
    for (const [key, name] of this.ids) if (key.startsWith(prefix.toLowerCase())) return name.replace(">", "/8>");
    return "<short>";
  }

  /**
   * Numbers every id of `value` breadth-first: the ids of an object's own fields before those
   * nested deeper (a node's id and physical_id before the ports its `data` lists), so what one
   * server adds deep inside shifts nothing at the top.
   */
  private number(value: unknown): void {
    let level: unknown[] = [value];
    while (level.length > 0) {
      const next: unknown[] = [];
      for (const item of level) {
        if (typeof item === "string") for (const id of item.match(UUID) ?? []) this.placeholder(id);
        else if (Array.isArray(item)) next.push(...item);
        else if (item !== null && typeof item === "object") next.push(...Object.values(item));
      }
      level = next;
    }
  }

  text(value: string): string {
    if (RANDOM_NODE_NAME.test(value)) return "node-<random>";
    let out = value.split(this.origin).join("<origin>");
    out = out.replace(UUID, (id) => this.placeholder(id));
    out = out.replace(TIME, "<time>");
    out = out.replace(/(?<![0-9a-f])[0-9a-f]{8}(?![0-9a-f])/g, (hex) => this.short(hex));
    return out;
  }

  /** A JSON value with every id numbered (breadth-first), strings normalised and epoch times replaced. */
  value(value: unknown): unknown {
    this.number(value);
    return this.replace(value, "");
  }

  private replace(value: unknown, key: string): unknown {
    if (typeof value === "string") return this.text(value);
    if (typeof value === "number" && /(^|_)(time|timestamp)$/.test(key)) return "<epoch>";
    if (Array.isArray(value)) return value.map((v) => this.replace(v, ""));
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.replace(v, k)]));
    }
    return value;
  }
}

/** One difference between the servers' normalised answers: where, and each server's value (undefined: absent). */
export interface Difference {
  /** `<scenario> / <step> / <field>`, the field a JSON path such as `body.cluster.policies`. */
  key: string;
  real: unknown;
  plane: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Every place where `real` and `plane` differ, as paths below `at`; arrays of different length differ as a whole. */
export function diff(at: string, real: unknown, plane: unknown): { path: string; real: unknown; plane: unknown }[] {
  if (isObject(real) && isObject(plane)) {
    const keys = [...new Set([...Object.keys(real), ...Object.keys(plane)])].sort();
    return keys.flatMap((k) => diff(`${at}.${k}`, real[k], plane[k]));
  }
  if (Array.isArray(real) && Array.isArray(plane) && real.length === plane.length) {
    return real.flatMap((r, i) => diff(`${at}[${i}]`, r, plane[i]));
  }
  return JSON.stringify(real) === JSON.stringify(plane) ? [] : [{ path: at, real, plane }];
}

/** The keys of an object, recursively, as a sorted list of paths (what a `shape` comparison compares). */
export function shapeOf(value: unknown, at = ""): string[] {
  if (Array.isArray(value)) return value.length > 0 ? shapeOf(value[0], `${at}[]`) : [`${at}[]`];
  if (!isObject(value)) return [at];
  return Object.keys(value)
    .sort()
    .flatMap((k) => shapeOf(value[k], at === "" ? k : `${at}.${k}`));
}

/**
 * A listing's body with each item of its list (the body's array values) cut down to `fields`, in
 * the order given; other values of the body as they are.
 */
export function listFields(body: unknown, fields: readonly string[]): unknown {
  if (!isObject(body)) return body;
  return Object.fromEntries(
    Object.entries(body).map(([key, list]) => [
      key,
      Array.isArray(list) ? list.map((item) => (isObject(item) ? Object.fromEntries(fields.map((f) => [f, item[f]])) : item)) : list,
    ]),
  );
}

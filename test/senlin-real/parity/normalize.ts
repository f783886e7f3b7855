/**
 * Makes two servers' answers comparable: ids become placeholders numbered in the order they first
 * appear in a step's observation (so the n-th id a step shows is `<id:n>` on both servers), times become
 * `<time>`, the server's own address `<origin>`. What is left differs only where the servers do.
 */
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

  /** A known id's placeholder for an 8-character short id (Senlin's names such as `node-1a2b3c4d-001`). */
  private short(prefix: string): string | undefined {
    for (const [key, name] of this.ids) if (key.startsWith(prefix.toLowerCase())) return name.replace(">", "/8>");
    return undefined;
  }

  text(value: string): string {
    let out = value.split(this.origin).join("<origin>");
    out = out.replace(/\b[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\b/gi, (id) => this.placeholder(id));
    out = out.replace(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/, "<time>");
    out = out.replace(/(?<![0-9a-f])[0-9a-f]{8}(?![0-9a-f])/g, (hex) => this.short(hex) ?? hex);
    return out;
  }

  /** A JSON value with every string normalised and epoch times (`start_time`, `end_time`, `timestamp`) replaced. */
  value(value: unknown, key = ""): unknown {
    if (typeof value === "string") return this.text(value);
    if (typeof value === "number" && /(^|_)(time|timestamp)$/.test(key)) return "<epoch>";
    if (Array.isArray(value)) return value.map((v) => this.value(v));
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.value(v, k)]));
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

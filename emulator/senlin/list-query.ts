import type { SenlinRequest } from "./context";
import { badRequest, httpBadRequest, SenlinError } from "./errors";

/** How one list route may be queried. */
export interface ListSpec<T> {
  /** Filter keys and how each reads an object's value. */
  filters: Readonly<Record<string, (item: T) => unknown>>;
  /** Sort keys and how each reads an object's value. */
  sortKeys: Readonly<Record<string, (item: T) => string | number | null>>;
}

const PAGING_KEYS = ["limit", "marker", "sort", "global_project"];

function parseBool(key: string, raw: string): boolean {
  const value = raw.toLowerCase();
  if (["true", "1", "yes", "on"].includes(value)) return true;
  if (["false", "0", "no", "off"].includes(value)) return false;
  throw badRequest(`Unrecognized value '${raw}' for '${key}', acceptable values are: '0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'`);
}

function compareBy<T>(spec: ListSpec<T>, sort: string): (a: T, b: T) => number {
  const keys = sort.split(",").map((part) => {
    const [key, dir = "asc", ...rest] = part.trim().split(":");
    const read = spec.sortKeys[key];
    if (!read || rest.length > 0 || !["asc", "desc"].includes(dir)) {
      throw badRequest(`Unsupported sort key or direction '${part.trim()}': keys are ${Object.keys(spec.sortKeys).join(", ")}; directions asc, desc.`);
    }
    return { read, sign: dir === "desc" ? -1 : 1 };
  });
  return (a, b) => {
    for (const { read, sign } of keys) {
      const [x, y] = [read(a) ?? "", read(b) ?? ""];
      if (x !== y) return (x < y ? -1 : 1) * sign;
    }
    return 0;
  };
}

/** Whether the caller asked to list across projects; only admins may. */
export function isGlobalListing(req: SenlinRequest): boolean {
  const raw = req.query.get("global_project");
  if (raw === null || !parseBool("global_project", raw)) return false;
  if (!req.token.roles.includes("admin")) throw new SenlinError("Forbidden", "You are not authorized to complete this operation.");
  return true;
}

/**
 * Applies a list route's query (filters, `sort`, `marker`, `limit`) to the objects visible to the
 * caller. Unknown keys are refused as the real server does.
 */
export function applyListQuery<T extends { id: string }>(req: SenlinRequest, items: T[], spec: ListSpec<T>): T[] {
  for (const key of req.query.keys()) {
    if (!PAGING_KEYS.includes(key) && !(key in spec.filters)) throw httpBadRequest(`Invalid parameter '${key}'`);
  }
  let result = items.filter((item) =>
    Object.entries(spec.filters).every(([key, read]) => {
      const wanted = req.query.getAll(key);
      return wanted.length === 0 || wanted.includes(String(read(item)));
    }),
  );
  const sort = req.query.get("sort");
  if (sort) result = [...result].sort(compareBy(spec, sort));
  const marker = req.query.get("marker");
  if (marker !== null) {
    const at = result.findIndex((item) => item.id === marker);
    if (at < 0) throw badRequest(`Invalid value '${marker}' specified for 'marker': no such object in this listing.`);
    result = result.slice(at + 1);
  }
  const limit = req.query.get("limit");
  if (limit !== null) {
    if (!/^\d+$/.test(limit)) throw badRequest(`The value (${limit}) is not a valid Integer for 'limit'.`);
    result = result.slice(0, Number(limit));
  }
  return result;
}

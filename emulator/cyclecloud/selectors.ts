import { z } from "zod";
import { invalidInput } from "./context";
import { compileFilter, FilterError, type NodePredicate } from "./filter";
import type { NodeRecord } from "./node-record";

/** NodeManagementRequest: every selector is optional; the nodes matched are their union. */
export const managementRequestSchema = z.object({
  filter: z.string().optional(),
  hostnames: z.array(z.string()).optional(),
  ids: z.array(z.string()).optional(),
  ip_addresses: z.array(z.string()).optional(),
  names: z.array(z.string()).optional(),
  requestId: z.string().min(1).optional(),
});

/** A validated NodeManagementRequest. */
export type ManagementRequest = z.infer<typeof managementRequestSchema>;

const FILTER_SUBSET =
  "attributes (Name, Configuration.x), quoted strings, numbers, true, false, null, === !== == != < <= > >=, && || ! and parentheses";

const SELECTOR_FIELDS = ["filter", "hostnames", "ids", "ip_addresses", "names"] as const;

/** How each list selector reads the node record; hostnames are compared case-insensitively. */
const LIST_SELECTORS: ReadonlyArray<[keyof ManagementRequest, (record: NodeRecord) => unknown, (v: string) => string]> = [
  ["names", (r) => r.Name, (v) => v],
  ["ids", (r) => r.NodeId, (v) => v],
  ["hostnames", (r) => (typeof r.Hostname === "string" ? r.Hostname.toLowerCase() : undefined), (v) => v.toLowerCase()],
  ["ip_addresses", (r) => r.PrivateIp, (v) => v],
];

/** Compiles the request's selectors into one predicate; 409 when none is given or the filter is unsupported. */
export function compileSelectors(request: ManagementRequest): NodePredicate {
  if (SELECTOR_FIELDS.every((f) => request[f] === undefined)) {
    throw invalidInput(`invalid NodeManagementRequest: give at least one of ${SELECTOR_FIELDS.join(", ")}`);
  }
  const predicates: NodePredicate[] = [];
  for (const [field, read, normalize] of LIST_SELECTORS) {
    const wanted = request[field] as string[] | undefined;
    if (wanted === undefined) continue;
    const set = new Set(wanted.map(normalize));
    predicates.push((record) => set.has(read(record) as string));
  }
  if (request.filter !== undefined) {
    try {
      predicates.push(compileFilter(request.filter));
    } catch (error) {
      if (!(error instanceof FilterError)) throw error;
      throw invalidInput(`invalid field "filter": got ${JSON.stringify(request.filter)}: ${error.message}; allowed: ${FILTER_SUBSET}`);
    }
  }
  return (record) => predicates.some((p) => p(record));
}

import { Code, ConnectError } from "@connectrpc/connect";
import type { ResourcePoolSpec } from "../../proto/gen/peloton/api/v1alpha/respool/respool_pb";
import { invalidArgument } from "./errors";
import { RESOURCE_KINDS } from "./pod-specs";
import type { RespoolRecord } from "./respool-store";

const KINDS = Object.keys(RESOURCE_KINDS);

/** Checks a pool spec's own fields: a name without `/`, and one well-formed entry per resource kind. */
export function assertValidSpec(spec: ResourcePoolSpec | undefined): asserts spec is ResourcePoolSpec {
  if (!spec) throw invalidArgument("resource pool spec is required");
  if (spec.name === "" || spec.name.includes("/")) {
    throw invalidArgument(`invalid resource pool name ${JSON.stringify(spec.name)}: must be non-empty and contain no "/"`);
  }
  const seen = new Set<string>();
  for (const r of spec.resources) {
    if (!KINDS.includes(r.kind)) {
      throw invalidArgument(`invalid resource kind ${JSON.stringify(r.kind)} in resource pool "${spec.name}": allowed: ${KINDS.join(", ")}`);
    }
    if (seen.has(r.kind)) throw invalidArgument(`resource kind "${r.kind}" appears twice in resource pool "${spec.name}"`);
    seen.add(r.kind);
    if (r.reservation < 0 || r.limit < 0 || r.share < 0) {
      throw invalidArgument(`resource "${r.kind}" of pool "${spec.name}": reservation, limit and share must be >= 0`);
    }
    if (r.limit < r.reservation) {
      throw invalidArgument(`resource "${r.kind}" of pool "${spec.name}": limit ${r.limit} is below reservation ${r.reservation}`);
    }
  }
}

/**
 * Checks a child against its parent (the root has no limits): each kind's limit within the
 * parent's, and the children's reservations together within the parent's reservation.
 */
export function assertFitsParent(spec: ResourcePoolSpec, parent: RespoolRecord, siblings: readonly RespoolRecord[]): void {
  for (const own of parent.spec.resources) {
    const child = spec.resources.find((r) => r.kind === own.kind);
    if (!child) continue;
    if (child.limit > own.limit) {
      throw invalidArgument(`resource "${own.kind}" of pool "${spec.name}": limit ${child.limit} exceeds parent "${parent.name}" limit ${own.limit}`);
    }
    const reserved = siblings.reduce((sum, s) => sum + (s.spec.resources.find((r) => r.kind === own.kind)?.reservation ?? 0), 0);
    if (reserved + child.reservation > own.reservation) {
      throw invalidArgument(
        `resource "${own.kind}" of pool "${spec.name}": reservation ${child.reservation} plus siblings' ${reserved} exceeds parent "${parent.name}" reservation ${own.reservation}`,
      );
    }
  }
}

/** Splits an absolute pool path into names; INVALID_ARGUMENT unless it starts with `/`. */
export function parsePoolPath(path: string): string[] {
  if (!path.startsWith("/")) {
    throw invalidArgument(`invalid resource pool path ${JSON.stringify(path)}: must be absolute, e.g. "/infrastructure/compute"`);
  }
  return path.split("/").filter((part) => part !== "");
}

/** The ALREADY_EXISTS for a pool id or a sibling name taken. */
export function respoolExists(what: string): ConnectError {
  return new ConnectError(`resource pool ${what} already exists`, Code.AlreadyExists);
}

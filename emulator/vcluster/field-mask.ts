import { type DescField, type DescMessage, fromJson, type JsonObject, type JsonValue, toJson } from "@bufbuild/protobuf";
import { type VClusterSpec, VClusterSpecSchema } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { invalidArgument } from "./validation";

/** What an UpdateVCluster mask selects: spec fields (dotted, snake_case) and whether labels are replaced. */
export interface ParsedMask {
  /** Paths inside the spec, e.g. `replicas`, `resources.cpu_limit`; `[""]` for the whole spec. */
  specPaths: string[];
  labels: boolean;
}

function describe(desc: DescMessage, prefix: string): string[] {
  return desc.fields.map((f) => `${prefix}${f.name}`);
}

/** Checks that `segments` walk through singular message fields of `desc` to any field. */
function assertSpecPath(path: string, segments: readonly string[]): void {
  let desc: DescMessage | undefined = VClusterSpecSchema;
  for (const [i, segment] of segments.entries()) {
    const field: DescField | undefined = desc?.fields.find((f) => f.name === segment || f.jsonName === segment);
    if (!desc || !field) {
      const allowed = desc ? describe(desc, i === 0 ? "spec." : `spec.${segments.slice(0, i).join(".")}.`) : [];
      throw invalidArgument("update_mask path", path, `unknown field; allowed: labels, spec, ${allowed.join(", ")}`);
    }
    desc = field.fieldKind === "message" ? field.message : undefined;
  }
}

/**
 * Parses an UpdateVCluster mask. Paths name request fields (`spec`, `spec.replicas`, `labels`); a
 * path that starts with a spec field (`replicas`) is read as inside the spec, a common client habit.
 * @throws ConnectError INVALID_ARGUMENT naming the path and the fields allowed.
 */
export function parseUpdateMask(paths: readonly string[]): ParsedMask {
  const parsed: ParsedMask = { specPaths: [], labels: false };
  for (const path of paths) {
    if (path === "labels") {
      parsed.labels = true;
      continue;
    }
    if (path === "spec") {
      parsed.specPaths.push("");
      continue;
    }
    const segments = path.startsWith("spec.") ? path.slice(5).split(".") : path.split(".");
    assertSpecPath(path, segments);
    parsed.specPaths.push(segments.join("."));
  }
  return parsed;
}

function getAt(obj: JsonObject, segments: readonly string[]): JsonValue | undefined {
  let current: JsonValue | undefined = obj;
  for (const s of segments) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = current[s];
  }
  return current;
}

function setAt(obj: JsonObject, segments: readonly string[], value: JsonValue | undefined): void {
  let current = obj;
  for (const s of segments.slice(0, -1)) {
    const next = current[s];
    if (next === null || typeof next !== "object" || Array.isArray(next)) current[s] = {};
    current = current[s] as JsonObject;
  }
  const last = segments[segments.length - 1];
  if (value === undefined) delete current[last];
  else current[last] = value;
}

const JSON_OPTIONS = { useProtoFieldName: true } as const;

/**
 * The spec with every masked path copied from `source`; a path absent from `source` is cleared
 * (field-mask semantics: the mask says what to replace, the message says with what).
 */
export function applySpecMask(target: VClusterSpec, source: VClusterSpec | undefined, specPaths: readonly string[]): VClusterSpec {
  if (specPaths.includes("")) return source ?? fromJson(VClusterSpecSchema, {});
  const out = toJson(VClusterSpecSchema, target, JSON_OPTIONS) as JsonObject;
  const from = (source ? toJson(VClusterSpecSchema, source, JSON_OPTIONS) : {}) as JsonObject;
  for (const path of specPaths) {
    const segments = path.split(".").map((s) => snakeCase(s));
    setAt(out, segments, getAt(from, segments));
  }
  return fromJson(VClusterSpecSchema, out);
}

/** JSON paths use proto names here; a segment given in lowerCamelCase is turned back into snake_case. */
function snakeCase(segment: string): string {
  return segment.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

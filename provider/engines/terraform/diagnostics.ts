import type { TfAttribute, TfNode, TfResourceType } from "./schema";

/** A protocol diagnostic, as an init object of tfplugin6.Diagnostic. */
export interface Diagnostic {
  severity: 1 | 2;
  summary: string;
  detail?: string;
  attribute?: { steps: { selector: { case: "attributeName"; value: string } }[] };
}

const ERROR = 1;
const WARNING = 2;

/** An error caught from a handler: its message is already clear and redacted (ClusterformError). */
export function errorDiagnostic(err: unknown): Diagnostic {
  return { severity: ERROR, summary: err instanceof Error ? err.message : String(err) };
}

/** The field path a reason starts with: names joined by `.`, list indexes and quoted map keys. */
const LEADING_PATH = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[(?:\d+|"(?:[^"\\]|\\.)*")\])*/;
/** One part of such a path: the first name, a `.name`, an `[index]` or a `["key"]`. */
const PATH_PART = /^[A-Za-z_]\w*|\.[A-Za-z_]\w*|\[(?:\d+|"(?:[^"\\]|\\.)*")\]/g;

/**
 * check() failures as diagnostics that point at the attribute (HCL name), so tofu shows the
 * configuration line. A failure inside a nested value names its whole path in the reason, in HCL
 * names too (`control_plane.node_count`, `default_spec.containers[0].resources.memory_mb`).
 */
export function failureDiagnostics(type: TfResourceType, failures: readonly { property: string; reason: string }[]): Diagnostic[] {
  return failures.map((f) => {
    const top = f.property.split(/[.[]/)[0];
    const attr = type.attributes.find((a) => a.field === top);
    // Reasons name the field as Pulumi users write it; HCL users wrote the attributes' names.
    const path = attr ? LEADING_PATH.exec(f.reason)?.[0] : undefined;
    const reason = path && path.split(/[.[]/)[0] === top ? hclPath(type.attributes, path) + f.reason.slice(path.length) : f.reason;
    const diagnostic: Diagnostic = { severity: ERROR, summary: `Invalid ${attr?.name ?? (f.property || type.name)}`, detail: reason };
    if (attr) diagnostic.attribute = { steps: [{ selector: { case: "attributeName", value: attr.name } }] };
    return diagnostic;
  });
}

/**
 * A handler field path (`controlPlane.count`, `labels["k"]`, `policies[1].policy`) in HCL names:
 * each attribute renamed as far as the schema knows it (map keys and list indexes kept); the rest,
 * inside free-form JSON or past a name the schema lacks, as it was.
 */
export function hclPath(attributes: readonly TfAttribute[], path: string): string {
  const parts = path.match(PATH_PART) ?? [];
  let scope: readonly TfAttribute[] | undefined = attributes;
  let node: TfNode | undefined;
  let out = "";
  for (const [i, part] of parts.entries()) {
    if (part.startsWith("[")) {
      // An index or a key: the element's node.
      node = node?.kind === "list" || node?.kind === "map" ? node.of : undefined;
      out += part;
    } else {
      const attr = scope?.find((a) => a.field === part.replace(/^\./, ""));
      if (!attr) return out + parts.slice(i).join("");
      node = attr.node;
      out += part.startsWith(".") ? `.${attr.name}` : attr.name;
    }
    scope = node?.kind === "object" ? node.attributes : undefined;
  }
  return out;
}

/**
 * The warning of a plan that clamps a size the platform owns into new bounds: tofu's plan shows the
 * size at its prior value (a provider may plan only that or the configuration's), so the clamp is
 * said here, on the size's attribute.
 */
export function clampWarning(type: TfResourceType, clamp: { field: string; from: number; to: number }): Diagnostic {
  const attr = type.attributes.find((a) => a.field === clamp.field);
  const name = attr?.name ?? clamp.field;
  const diagnostic: Diagnostic = {
    severity: WARNING,
    summary: `clusterform: ${type.name} clamps ${name} from ${clamp.from} to ${clamp.to}`,
    detail:
      `capacity_owner is "platform" and the live size (${clamp.from}, as last refreshed) is outside the new bounds, so the apply moves it ` +
      `into them (to ${clamp.to}, or to the nearest bound of the size the platform has by then). The plan shows ${name} at its prior value; ` +
      "the next refresh records the clamped size.",
  };
  if (attr) diagnostic.attribute = { steps: [{ selector: { case: "attributeName", value: attr.name } }] };
  return diagnostic;
}

import type { TfResourceType } from "./schema";

/** A protocol diagnostic, as an init object of tfplugin6.Diagnostic. */
export interface Diagnostic {
  severity: 1 | 2;
  summary: string;
  detail?: string;
  attribute?: { steps: { selector: { case: "attributeName"; value: string } }[] };
}

const ERROR = 1;

/** An error caught from a handler: its message is already clear and redacted (ClusterformError). */
export function errorDiagnostic(err: unknown): Diagnostic {
  return { severity: ERROR, summary: err instanceof Error ? err.message : String(err) };
}

/**
 * check() failures as diagnostics that point at the attribute (HCL name), so tofu shows the
 * configuration line. A failure inside a nested value names its whole path in the reason.
 */
export function failureDiagnostics(type: TfResourceType, failures: readonly { property: string; reason: string }[]): Diagnostic[] {
  return failures.map((f) => {
    const top = f.property.split(/[.[]/)[0];
    const attr = type.attributes.find((a) => a.field === top);
    // Reasons name the field as Pulumi users write it; HCL users wrote the attribute's name.
    const reason = attr && f.reason.startsWith(top) ? attr.name + f.reason.slice(top.length) : f.reason;
    const diagnostic: Diagnostic = { severity: ERROR, summary: `Invalid ${attr?.name ?? (f.property || type.name)}`, detail: reason };
    if (attr) diagnostic.attribute = { steps: [{ selector: { case: "attributeName", value: attr.name } }] };
    return diagnostic;
  });
}

/**
 * The value Pulumi sends during preview for inputs not yet known, whatever their type (#6310).
 * Every validation building block lets it through.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when `value` is the unknown sentinel or contains it anywhere inside. */
export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(isUnknown);
  return false;
}

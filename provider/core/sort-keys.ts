/**
 * A value with every object's keys in sorted order and undefined members left out (bigints as
 * text), so that `JSON.stringify` of it is the same text for equal values whatever their key order:
 * for digests and markers derived from inputs.
 */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return typeof value === "bigint" ? String(value) : value;
  const rec = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(rec)
      .filter((k) => rec[k] !== undefined)
      .sort()
      .map((k) => [k, sortKeys(rec[k])]),
  );
}

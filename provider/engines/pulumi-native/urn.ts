
/** The parts of a resource URN the plugin needs. */
export interface UrnParts {
  project: string;
  stack: string;
  /** The resource's type token (the last segment of the qualified type). */
  type: string;
  /** The resource's logical name. */
  name: string;
}

/**
 * Splits `urn:pulumi:<stack>::<project>::<qualified type>::<name>`; the name may itself hold `::`.
 * @throws Error naming the URN when it has another shape.
 */
export function parseUrn(urn: string): UrnParts {
  const parts = urn.split("::");
  if (!urn.startsWith("urn:pulumi:") || parts.length < 4) throw new Error(`clusterform: not a resource URN: ${JSON.stringify(urn)}`);
  const qualified = parts[2].split("$");
  return { stack: parts[0].slice("urn:pulumi:".length), project: parts[1], type: qualified[qualified.length - 1], name: parts.slice(3).join("::") };
}


import type { Kind } from "./kind";
import type { ChangePolicy, Field, TypeSpec } from "./values";

/** What leaving out a field the platform defaults means, for every generated document. */
export const SERVER_DEFAULT_SENTENCE = "Left out, the object keeps the value the platform has (no change is planned, also after an import).";

/** What a size the platform may own means, for every generated document (core/capacity.ts). */
export const PLATFORM_SIZE_SENTENCE = 'With `capacityOwner: "platform"` this is only the initial size: after create the live size stands.';
/** What new bounds do to such a size, for one the kind bounds. */
export const BOUNDED_SIZE_SENTENCE = "New bounds keep it when it fits them and clamp it into them otherwise.";

/** How a change to a field is carried out, as one sentence for every generated document. */
export function policySentence(policy: ChangePolicy | undefined): string {
  if (policy === undefined) return "";
  if (policy.kind === "replace") return "Changing it replaces the resource.";
  if (policy.kind === "ignore") return "Changing it alone changes nothing on the platform.";
  if (policy.kind === "record") return "Changes in place in the state only: nothing is sent to the platform.";
  return `Changes in place (${policy.operation}).`;
}

/** Bounds a type states that the description may not, e.g. `0 to 1000`. */
function boundsOf(type: TypeSpec): string {
  if (type.kind === "integer" && type.min !== undefined && type.max !== undefined) return ` Allowed: ${type.min} to ${type.max}.`;
  if (type.kind === "string" && type.enum) return ` One of ${type.enum.map((e) => `\`${JSON.stringify(e)}\``).join(", ")}.`;
  return "";
}

/** A field's full description: what it is, its bounds, its change policy, its default. */
export function fieldDescription(field: Field): string {
  const parts = [field.description + boundsOf(field.value.type)];
  const policy = policySentence(field.policy);
  if (policy) parts.push(policy);
  if (field.default !== undefined) parts.push(`Default: ${field.default}.`);
  if (field.serverDefault) parts.push(SERVER_DEFAULT_SENTENCE);
  if (field.platformSize) parts.push(PLATFORM_SIZE_SENTENCE);
  if (field.platformSize?.min !== undefined || field.platformSize?.max !== undefined) parts.push(BOUNDED_SIZE_SENTENCE);
  return parts.join(" ");
}

/** The name users write for a field in Pulumi programs. */
export function pulumiName(key: string, field: Field): string {
  return field.names?.pulumi ?? key;
}

/** The module and name of a kind's token: `cmassh:NodePool` is module `cmassh`, name `NodePool`. */
export function tokenParts(kind: Kind): { module: string; name: string } {
  const [module, name] = kind.type.split(":");
  return { module, name };
}

/** The native plugin's token of a kind, e.g. `clusterform:cmassh:NodePool`. */
export function nativeToken(kind: Kind): string {
  return `clusterform:${kind.type}`;
}

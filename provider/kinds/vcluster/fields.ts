import { isIPv4, isIPv6 } from "node:net";
import { z } from "zod";
import { OWNER_LABEL_KEY } from "../../core/naming";
import { describeValue, isLabelValue, labelMap, UNKNOWN } from "../../core/validation";
import type { Value } from "../../core/definition/values";

/**
 * A string rule in the shape of the core building blocks: the unknown sentinel passes, anything
 * else must satisfy `test`, and a failure reads `<field> must be <allowed>, got <value>`.
 */
function textRule(test: (text: string) => boolean, allowed: string, prefix = ""): z.ZodType<string, unknown> {
  const schema = z.unknown().transform((value, ctx) => {
    if (value === UNKNOWN) return value as string;
    if (typeof value === "string" && test(value)) return value;
    const message = value === undefined ? `${prefix}is required` : `${prefix}must be ${allowed}, got ${describeValue(value)}`;
    ctx.addIssue({ code: "custom", message, input: value });
    return z.NEVER;
  });
  return schema as unknown as z.ZodType<string, unknown>;
}

const QUANTITY = /^(\d+(\.\d+)?|\.\d+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;

/** A Kubernetes resource quantity such as `500m`, `2`, `1.5`, `512Mi` or `1Gi`. */
export const quantity = () =>
  textRule(
    (t) => QUANTITY.test(t),
    'a Kubernetes quantity: a non-negative number with an optional suffix m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei, such as "500m" or "1Gi"',
  );

function isCidr(text: string): boolean {
  const [address, prefix, ...rest] = text.split("/");
  if (rest.length > 0 || prefix === undefined || !/^\d{1,3}$/.test(prefix)) return false;
  const bits = Number(prefix);
  return (isIPv4(address) && bits <= 32) || (isIPv6(address) && bits <= 128);
}

/** An IPv4 or IPv6 network in CIDR notation, e.g. `10.42.0.0/16`. */
export const cidr = () => textRule(isCidr, 'a network in CIDR notation such as "10.42.0.0/16" or "fd00::/108"');

/** An IPv4 or IPv6 address, e.g. `10.96.0.10`. */
export const ipAddress = () => textRule((t) => isIPv4(t) || isIPv6(t), 'an IPv4 or IPv6 address such as "10.96.0.10"');

/**
 * Label keys Clusterform sets itself: the ownership marker, and `owner` and `project`, which carry
 * the vcluster's owner and project (CreateVClusterRequest has no fields for them).
 */
export const RESERVED_LABELS: Readonly<Record<string, string>> = {
  [OWNER_LABEL_KEY]: `Clusterform sets ${OWNER_LABEL_KEY} to mark what it created`,
  owner: "it carries the `owner` argument; set that instead",
  project: "it carries the `project` argument; set that instead",
};

/** User labels, as a definition value. */
export const userLabelsValue = (): Value<Record<string, string>> => ({ type: { kind: "map", of: { kind: "string" } }, validate: userLabels() });

/** User labels: Kubernetes syntax, with the {@link RESERVED_LABELS} refused. */
export const userLabels = () =>
  labelMap().superRefine((labels, ctx) => {
    if (typeof labels !== "object" || labels === null) return;
    for (const [key, why] of Object.entries(RESERVED_LABELS)) {
      if (!Object.hasOwn(labels, key)) continue;
      ctx.addIssue({ code: "custom", path: [key], message: `is reserved: ${why}, got ${describeValue(labels[key])}`, params: { mapKey: true } });
    }
  });

/** A plain string map (annotations): any keys, string values. */
export const stringMap = () => z.record(z.string(), z.string());

/**
 * A Kubernetes label value: `owner` and `project` travel as labels.
 * @param argument - the SDK argument's name when the input is stored under another. @default none
 */
export const labelValue = (argument?: string) =>
  textRule(
    (t) => isLabelValue(t),
    "a Kubernetes label value: empty or 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
    argument === undefined ? "" : `(the \`${argument}\` argument) `,
  );

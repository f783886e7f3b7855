import type { ConfigReader } from "../../core/config";
import { CONFIG_VARIABLES } from "../../core/definition/provider-config";
import type { CtyType, TfValue } from "./codec";
import { attributeName } from "./schema";

/**
 * The `provider "clusterform"` block: the provider's configuration variables (defined once in
 * provider/core/definition/provider-config.ts) in HCL names. An unset attribute falls back to the same
 * environment variable as with Pulumi, because the handlers read both through one ConfigReader.
 */
export const PROVIDER_ATTRIBUTES = CONFIG_VARIABLES.map((c) => ({
  name: attributeName(c.key, {}),
  key: c.key,
  sensitive: c.secret === true,
  description: c.env ? `${c.description} Default: the environment variable ${c.env}.` : c.description,
}));

/** The provider block's object type: every attribute an optional string. */
export const PROVIDER_TYPE: CtyType = ["object", Object.fromEntries(PROVIDER_ATTRIBUTES.map((a) => [a.name, "string"]))];

/** A ConfigReader over the provider block's values: `clusterform:senlinUsername` reads `senlin_username`. */
export function providerConfigReader(block: TfValue): ConfigReader {
  const values = (block && typeof block === "object" && !Array.isArray(block) ? block : {}) as Record<string, TfValue>;
  const byKey = new Map(PROVIDER_ATTRIBUTES.map((a) => [`clusterform:${a.key}`, a.name]));
  return {
    get(key) {
      const name = byKey.get(key);
      const value = name === undefined ? undefined : values[name];
      return typeof value === "string" && value !== "" ? value : undefined;
    },
  };
}

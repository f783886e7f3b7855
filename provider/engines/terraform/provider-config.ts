import type { ConfigReader } from "../../core/config";
import type { CtyType, TfValue } from "./codec";
import { hclName } from "./schema";

/**
 * The `provider "clusterform"` block: the same settings as the Pulumi stack configuration
 * (`clusterform:<key>`), in HCL names. Unset attributes fall back to the same environment
 * variables as with Pulumi, because the handlers read both through one ConfigReader.
 */
const SETTINGS: readonly { key: string; sensitive?: boolean; description: string }[] = [
  { key: "endpoint", description: "The shared endpoint of every platform (CLUSTERFORM_ENDPOINT); default the local control plane." },
  ...["cmassh", "cyclecloud", "senlin", "peloton", "vcluster"].map((p) => ({
    key: `${p}Endpoint`,
    description: `The ${p} endpoint (CLUSTERFORM_${p.toUpperCase()}_ENDPOINT).`,
  })),
  { key: "unreachableTimeout", description: "How long an unreachable platform is retried, e.g. 30s (CLUSTERFORM_UNREACHABLE_TIMEOUT)." },
  { key: "callTimeout", description: "The deadline of one platform call, e.g. 30s." },
  { key: "cyclecloudUsername", description: "CycleCloud user." },
  { key: "cyclecloudPassword", sensitive: true, description: "CycleCloud password." },
  { key: "senlinCloud", description: "The cloud of clouds.yaml holding the Senlin credentials (OS_CLOUD)." },
  { key: "senlinAuthUrl", description: "Keystone URL (OS_AUTH_URL)." },
  { key: "senlinUsername", description: "OpenStack user (OS_USERNAME)." },
  { key: "senlinPassword", sensitive: true, description: "OpenStack password (OS_PASSWORD)." },
  { key: "senlinProjectName", description: "OpenStack project (OS_PROJECT_NAME)." },
  { key: "senlinUserDomainName", description: "OpenStack user domain (OS_USER_DOMAIN_NAME)." },
  { key: "senlinProjectDomainName", description: "OpenStack project domain (OS_PROJECT_DOMAIN_NAME)." },
  { key: "senlinRegion", description: "OpenStack region (OS_REGION_NAME)." },
];

/** The provider block's attributes, all optional strings. */
export const PROVIDER_ATTRIBUTES = SETTINGS.map((s) => ({
  name: hclName(s.key),
  key: s.key,
  sensitive: s.sensitive ?? false,
  description: s.description,
}));

/** The provider block's object type. */
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

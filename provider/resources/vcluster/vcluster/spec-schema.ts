import { z } from "zod";
import { dnsLabel, isUnknown, orUnknown } from "../../../core/validation";
import { cidr, ipAddress, quantity, stringMap } from "../fields";

const text = () => z.string();
const flag = () => z.boolean().optional();
const opt = <S extends z.ZodType>(schema: S) => orUnknown(schema).optional();

/** `resources`: control plane requests and limits, as Kubernetes quantities. */
export const resourcesSchema = z
  .object({
    cpuRequest: quantity().optional(),
    cpuLimit: quantity().optional(),
    memoryRequest: quantity().optional(),
    memoryLimit: quantity().optional(),
    ephemeralStorageRequest: quantity().optional(),
    ephemeralStorageLimit: quantity().optional(),
  })
  .strict();

/** `network`: CIDRs and DNS of the virtual cluster. */
export const networkSchema = z
  .object({
    podCidr: cidr().optional(),
    serviceCidr: cidr().optional(),
    enableNetworkPolicies: flag(),
    dnsServiceIp: ipAddress().optional(),
    dns: opt(
      z.object({ nameservers: z.array(ipAddress()).optional(), searches: z.array(text()).optional(), options: z.array(text()).optional() }).strict(),
    ),
  })
  .strict();

/** `storage`: etcd persistence. */
export const storageSchema = z
  .object({
    defaultStorageClass: text().optional(),
    enablePersistence: flag(),
    persistenceSize: quantity().optional(),
    persistenceStorageClass: text().optional(),
  })
  .strict();

/** `sync`: which host resources are synced into the virtual cluster. */
export const syncSchema = z
  .object({
    syncNodes: flag(),
    syncPersistentVolumes: flag(),
    syncStorageClasses: flag(),
    syncIngresses: flag(),
    syncPriorityClasses: flag(),
    syncNetworkPolicies: flag(),
    syncPodDisruptionBudgets: flag(),
    customResources: z.array(text()).optional(),
  })
  .strict();

/** One entry of `plugins`. */
export const pluginSchema = z
  .object({ name: dnsLabel({ maxLength: 63 }), version: text().optional(), config: text().optional(), enabled: flag() })
  .strict();

/** `ingress`: exposes the API server; its hostname becomes the API server endpoint. */
export const ingressSchema = z
  .object({
    enabled: flag(),
    ingressClass: text().optional(),
    hostname: text().optional(),
    tls: opt(
      z.object({ enabled: flag(), secretName: text().optional(), useCertManager: flag(), issuerName: text().optional() }).strict(),
    ),
    annotations: stringMap().optional(),
  })
  .strict();

/** `serviceAccount`: the control plane's service account. */
export const serviceAccountSchema = z
  .object({ name: text().optional(), annotations: stringMap().optional(), automountToken: flag() })
  .strict();

/** Plugin names must be unique: the server keys plugins by name. */
export const pluginsSchema = z.array(orUnknown(pluginSchema)).superRefine((plugins, ctx) => {
  const seen = new Set<string>();
  for (const [i, p] of plugins.entries()) {
    if (isUnknown(p) || isUnknown(p.name)) continue;
    if (seen.has(p.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `must be unique among plugins, got ${JSON.stringify(p.name)} twice` });
    seen.add(p.name);
  }
});

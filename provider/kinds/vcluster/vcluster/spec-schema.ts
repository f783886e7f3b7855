import { z } from "zod";
import { dnsLabel, isUnknown, orUnknown } from "../../../core/validation";
import { optional, required, type Value, v } from "../../../core/definition/values";
import { cidr, ipAddress, quantity, stringMap } from "../fields";

// The nested parts of a vcluster's spec, every field written once: the validators, the SDK's
// nested types and the package schema's object types all come from these definitions.

const str = (validate: z.ZodType<string, unknown>): Value<string> => ({ type: { kind: "string" }, validate });
const text = () => v.string();
const flag = () => v.boolean();
const texts = (): Value<string[]> => ({ type: { kind: "list", of: { kind: "string" } }, validate: orUnknown(z.array(z.string())) });
const quantityField = (description: string) => optional(str(quantity()), { description, default: "none" });
const annotations = () =>
  optional({ type: { kind: "map", of: { kind: "string" } }, validate: stringMap() }, { description: "Annotations.", default: "{}" });

/** `resources`: control plane requests and limits, as Kubernetes quantities. */
export const resourcesSpec = v.object("ResourceRequirements", "Control plane requests and limits, as Kubernetes quantities (`\"500m\"`, `\"1Gi\"`).", {
  cpuRequest: quantityField("CPU request."),
  cpuLimit: quantityField("CPU limit."),
  memoryRequest: quantityField("Memory request."),
  memoryLimit: quantityField("Memory limit."),
  ephemeralStorageRequest: quantityField("Ephemeral storage request."),
  ephemeralStorageLimit: quantityField("Ephemeral storage limit."),
});

/** `network`: CIDRs and DNS of the virtual cluster. */
export const networkSpec = v.object("NetworkConfig", "CIDRs and DNS of the virtual cluster.", {
  podCidr: optional(str(cidr()), { description: 'Pod network, an IPv4 or IPv6 CIDR, e.g. `"10.42.0.0/16"`.', default: "the server's" }),
  serviceCidr: optional(str(cidr()), { description: "Service network, an IPv4 or IPv6 CIDR.", default: "the server's" }),
  enableNetworkPolicies: optional(flag(), { description: "Enforce network policies.", default: "false" }),
  dnsServiceIp: optional(str(ipAddress()), { description: "The cluster DNS service address (IPv4 or IPv6).", default: "the server's" }),
  dns: optional(
    v.object("DnsConfig", "DNS settings of the virtual cluster's pods.", {
      nameservers: optional({ type: { kind: "list", of: { kind: "string" } }, validate: orUnknown(z.array(ipAddress())) }, {
        description: "Nameserver addresses (IPv4 or IPv6).",
        default: "[]",
      }),
      searches: optional(texts(), { description: "Search domains.", default: "[]" }),
      options: optional(texts(), { description: "Resolver options.", default: "[]" }),
    }),
    { description: "DNS settings.", default: "none" },
  ),
});

/** `storage`: etcd persistence. */
export const storageSpec = v.object("StorageConfig", "etcd persistence.", {
  defaultStorageClass: optional(text(), { description: "Default storage class.", default: '""' }),
  enablePersistence: optional(flag(), { description: "Persist etcd data.", default: "false" }),
  persistenceSize: optional(str(quantity()), { description: 'Volume size, a Kubernetes quantity, e.g. `"5Gi"`.', default: "the server's" }),
  persistenceStorageClass: optional(text(), { description: "Storage class of the volume.", default: '""' }),
});

const syncFlag = (what: string) => optional(flag(), { description: `Sync ${what}.`, default: "false" });

/** `sync`: which host resources are synced into the virtual cluster. */
export const syncSpec = v.object("SyncConfig", "Which host resources are synced into the virtual cluster.", {
  syncNodes: syncFlag("nodes"),
  syncPersistentVolumes: syncFlag("persistent volumes"),
  syncStorageClasses: syncFlag("storage classes"),
  syncIngresses: syncFlag("ingresses"),
  syncPriorityClasses: syncFlag("priority classes"),
  syncNetworkPolicies: syncFlag("network policies"),
  syncPodDisruptionBudgets: syncFlag("pod disruption budgets"),
  customResources: optional(texts(), { description: "Custom resources to sync.", default: "[]" }),
});

/** One entry of `plugins`. */
export const pluginSpec = v.object("PluginConfig", "A vcluster plugin.", {
  name: required(str(dnsLabel({ maxLength: 63 })), { description: "Plugin name, a DNS-1123 label, unique among plugins." }),
  version: optional(text(), { description: "Plugin version.", default: '""' }),
  config: optional(text(), { description: "Plugin configuration (YAML).", default: '""' }),
  enabled: optional(flag(), { description: "Whether the plugin runs.", default: "false" }),
});

/** `ingress`: exposes the API server; its hostname becomes the API server endpoint. */
export const ingressSpec = v.object("IngressConfig", "Exposes the API server; its hostname becomes the API server endpoint.", {
  enabled: optional(flag(), { description: "Create the ingress.", default: "false" }),
  ingressClass: optional(text(), { description: "Ingress class.", default: '""' }),
  hostname: optional(text(), { description: "Host name.", default: '""' }),
  tls: optional(
    v.object("IngressTls", "TLS of the API server ingress.", {
      enabled: optional(flag(), { description: "Serve TLS.", default: "false" }),
      secretName: optional(text(), { description: "Secret holding the certificate.", default: '""' }),
      useCertManager: optional(flag(), { description: "Let cert-manager issue the certificate.", default: "false" }),
      issuerName: optional(text(), { description: "cert-manager issuer.", default: '""' }),
    }),
    { description: "TLS settings.", default: "none" },
  ),
  annotations: annotations(),
});

/** `serviceAccount`: the control plane's service account. */
export const serviceAccountSpec = v.object("ServiceAccountConfig", "The control plane's service account.", {
  name: optional(text(), { description: "Service account name.", default: '""' }),
  annotations: annotations(),
  automountToken: optional(flag(), { description: "Mount its token.", default: "false" }),
});

/** Plugin names must be unique: the server keys plugins by name. */
export const pluginsSchema = orUnknown(
  z.array(pluginSpec.validate).superRefine((plugins, ctx) => {
    const seen = new Set<string>();
    for (const [i, p] of plugins.entries()) {
      if (isUnknown(p) || isUnknown(p.name)) continue;
      if (seen.has(p.name)) ctx.addIssue({ code: "custom", path: [i, "name"], message: `must be unique among plugins, got ${JSON.stringify(p.name)} twice` });
      seen.add(p.name);
    }
  }),
);

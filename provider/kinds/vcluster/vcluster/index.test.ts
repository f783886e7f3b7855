import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../core/validation";
import { vclusterVCluster } from "./kind";
import { testHandler } from "../../testing";

const vclusterHandler = testHandler(vclusterVCluster);

type Props = Record<string, unknown>;
const PROVIDER = 'exports.handler = require("clusterform/provider")';
const OWNER = "0123456789abcdef";
const DERIVED = expect.stringMatching(/^dev-[0-9a-f]{7}$/);

/** What the SDK sends for `new vcluster.VCluster("dev", { namespace: "team-a" })`. */
const raw: Props = { __provider: PROVIDER, owner: OWNER, resourceName: "dev", namespace: "team-a" };

const DNS = "must be a DNS-1123 label: 1 to 63 lowercase letters, digits or '-', starting and ending with a letter or digit, got";
const QTY =
  'must be a Kubernetes quantity: a non-negative number with an optional suffix m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi or Ei, such as "500m" or "1Gi", got';
const DRAIN = 'must be a duration of whole seconds from 1s to 2147483647s, such as "90s", "5m" or "1h30m", got';
const CIDR = 'must be a network in CIDR notation such as "10.42.0.0/16" or "fd00::/108", got';

describe("vclusterHandler.check", () => {
  it.each<[string, Props, Props]>([
    ["derives a name from the resource name", {}, { name: DERIVED, autoNamed: true }],
    ["keeps a chosen name", { name: "dev-eu" }, { name: "dev-eu", autoNamed: false }],
    ["accepts quantities 500m and 1Gi", { resources: { cpuRequest: "500m", memoryLimit: "1Gi", cpuLimit: "2", ephemeralStorageLimit: "1.5" } }, { name: DERIVED, autoNamed: true }],
    ["accepts IPv4 and IPv6 CIDRs", { network: { podCidr: "10.42.0.0/16", serviceCidr: "fd00::/108", dnsServiceIp: "10.96.0.10" } }, { name: DERIVED, autoNamed: true }],
    ["accepts every distro's spelling", { distro: "k0s", replicas: 3, isolationMode: "lite", suspended: true }, { name: DERIVED, autoNamed: true }],
    ["accepts plugins, ingress and a service account", {
      plugins: [{ name: "hooks", version: "1.0.0", enabled: true }],
      ingress: { enabled: true, hostname: "dev.example.com", tls: { enabled: true }, annotations: { "a/b": "c" } },
      serviceAccount: { name: "vc", automountToken: true },
    }, { name: DERIVED, autoNamed: true }],
    ["accepts owner, project and labels", { vclusterOwner: "alice", project: "web", labels: { env: "dev" } }, { name: DERIVED, autoNamed: true }],
    ["accepts every suspend option", { suspended: true, suspendOptions: { drainWorkloads: true, drainTimeout: "5m", createSnapshot: true, snapshotName: "before-pause" } }, { name: DERIVED, autoNamed: true }],
    ["accepts a drain timeout of whole seconds written in minutes and seconds", { suspendOptions: { drainWorkloads: true, drainTimeout: "1m30s" } }, { name: DERIVED, autoNamed: true }],
    ["accepts a drain timeout just under a raised update timeout", { suspendOptions: { drainWorkloads: true, drainTimeout: "59m" }, timeouts: { create: "1h", update: "1h" } }, { name: DERIVED, autoNamed: true }],
  ])("%s", async (_, patch, filled) => {
    expect(await vclusterHandler.check({}, { ...raw, ...patch })).toEqual({ inputs: { ...raw, ...patch, ...filled, __provider: PROVIDER }, failures: [] });
  });

  it.each<[string, Props, { property: string; reason: string }[]]>([
    ["a missing namespace", { namespace: undefined }, [{ property: "namespace", reason: "namespace is required" }]],
    ["a namespace with capitals", { namespace: "Team_A" }, [{ property: "namespace", reason: `namespace ${DNS} "Team_A"` }]],
    ["a name with a dot", { name: "dev.1" }, [{ property: "name", reason: `name ${DNS} "dev.1"` }]],
    ["an unknown distro", { distro: "k9s" }, [{ property: "distro", reason: 'distro must be one of "k3s", "k8s", "k0s" or "eks", got "k9s"' }]],
    ["zero replicas", { replicas: 0 }, [{ property: "replicas", reason: "replicas must be an integer between 1 and 9, got 0" }]],
    ["fractional replicas", { replicas: 1.5 }, [{ property: "replicas", reason: "replicas must be an integer between 1 and 9, got 1.5" }]],
    ["replicas as a string", { replicas: "3" }, [{ property: "replicas", reason: 'replicas must be an integer between 1 and 9, got "3"' }]],
    ["a CPU quantity with a bad suffix", { resources: { cpuRequest: "500mm" } }, [{ property: "", reason: `resources.cpuRequest ${QTY} "500mm"` }]],
    ["a memory quantity that is negative", { resources: { memoryLimit: "-1Gi" } }, [{ property: "", reason: `resources.memoryLimit ${QTY} "-1Gi"` }]],
    ["a memory quantity with a space", { resources: { memoryRequest: "1 Gi" } }, [{ property: "", reason: `resources.memoryRequest ${QTY} "1 Gi"` }]],
    ["a CIDR without a prefix", { network: { podCidr: "10.42.0.0" } }, [{ property: "", reason: `network.podCidr ${CIDR} "10.42.0.0"` }]],
    ["a CIDR with a prefix over 32", { network: { serviceCidr: "10.96.0.0/33" } }, [{ property: "", reason: `network.serviceCidr ${CIDR} "10.96.0.0/33"` }]],
    ["a CIDR with an octet over 255", { network: { podCidr: "10.300.0.0/16" } }, [{ property: "", reason: `network.podCidr ${CIDR} "10.300.0.0/16"` }]],
    ["a DNS service IP that is a name", { network: { dnsServiceIp: "dns" } }, [{ property: "", reason: 'network.dnsServiceIp must be an IPv4 or IPv6 address such as "10.96.0.10", got "dns"' }]],
    ["a persistence size that is a word", { storage: { persistenceSize: "big" } }, [{ property: "", reason: `storage.persistenceSize ${QTY} "big"` }]],
    ["an isolation mode that does not exist", { isolationMode: "strict" }, [{ property: "isolationMode", reason: 'isolationMode must be one of "full" or "lite", got "strict"' }]],
    ["a kubernetes version without a patch", { kubernetesVersion: "1.29" }, [{ property: "kubernetesVersion", reason: 'kubernetesVersion must be a version MAJOR.MINOR.PATCH such as "1.13.4" (a leading "v" is allowed), got "1.29"' }]],
    ["the reserved owner label", { labels: { owner: "bob" } }, [{ property: "", reason: 'labels key "owner" is reserved: it carries the `owner` argument; set that instead, got "bob"' }]],
    ["an owner with spaces", { vclusterOwner: "Alice Smith" }, [{ property: "vclusterOwner", reason: "vclusterOwner (the `owner` argument) must be a Kubernetes label value: empty or 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, got \"Alice Smith\"" }]],
    ["suspended as a string", { suspended: "yes" }, [{ property: "suspended", reason: 'suspended must be a boolean, got "yes"' }]],
    ["an empty restoreFrom", { restoreFrom: "" }, [{ property: "restoreFrom", reason: 'restoreFrom must be at least 1 characters, got ""' }]],
    ["duplicate plugin names", { plugins: [{ name: "a" }, { name: "a" }] }, [{ property: "", reason: 'plugins[1].name must be unique among plugins, got "a" twice' }]],
    ["a field vcluster does not have", { region: "eu" }, [{ property: "region", reason: "region is not a known field" }]],
    ["a snapshot name without a snapshot", { suspendOptions: { snapshotName: "s1" } }, [{ property: "", reason: 'suspendOptions.snapshotName applies only with createSnapshot: true, got "s1" with createSnapshot unset' }]],
    ["a drain timeout without a drain", { suspendOptions: { drainWorkloads: false, drainTimeout: "5m" } }, [{ property: "", reason: 'suspendOptions.drainTimeout applies only with drainWorkloads: true, got "5m" with drainWorkloads false' }]],
    ["a zero drain timeout", { suspendOptions: { drainWorkloads: true, drainTimeout: "0s" } }, [{ property: "", reason: `suspendOptions.drainTimeout ${DRAIN} "0s"` }]],
    ["a negative drain timeout", { suspendOptions: { drainWorkloads: true, drainTimeout: "-5s" } }, [{ property: "", reason: `suspendOptions.drainTimeout ${DRAIN} "-5s"` }]],
    ["a drain timeout of a fraction of a second", { suspendOptions: { drainWorkloads: true, drainTimeout: "1500ms" } }, [{ property: "", reason: `suspendOptions.drainTimeout ${DRAIN} "1500ms"` }]],
    ["a drain timeout in seconds as a number", { suspendOptions: { drainWorkloads: true, drainTimeout: 300 } }, [{ property: "", reason: `suspendOptions.drainTimeout ${DRAIN} 300` }]],
    ["a drain timeout as long as the update's", { suspendOptions: { drainWorkloads: true, drainTimeout: "20m" } }, [{ property: "", reason: 'suspendOptions.drainTimeout must be shorter than timeouts.update ("20m"), the time the provider waits for a suspend, got "20m"' }]],
    ["a drain timeout longer than a lowered create timeout", { suspendOptions: { drainWorkloads: true, drainTimeout: "10m" }, timeouts: { create: "5m" } }, [{ property: "", reason: 'suspendOptions.drainTimeout must be shorter than timeouts.create ("5m"), the time the provider waits for a suspend, got "10m"' }]],
    ["a snapshot name with capitals", { suspendOptions: { createSnapshot: true, snapshotName: "Before_Pause" } }, [{ property: "", reason: `suspendOptions.snapshotName ${DNS} "Before_Pause"` }]],
    ["a suspend option vcluster does not have", { suspendOptions: { force: true } }, [{ property: "", reason: "suspendOptions.force is not a known field" }]],
    ["a resources field vcluster does not have", { resources: { gpu: "1" } }, [{ property: "", reason: "resources.gpu is not a known field" }]],
  ])("rejects %s naming the field, the value and what is allowed", async (_, patch, failures) => {
    const news = { ...raw, ...patch };
    expect(await vclusterHandler.check({}, news)).toEqual({ inputs: news, failures });
  });

  it.each<[string, Props]>([
    ["the namespace", { namespace: UNKNOWN }],
    ["replicas", { replicas: UNKNOWN }],
    ["resources", { resources: UNKNOWN }],
    ["one quantity", { resources: { cpuLimit: UNKNOWN } }],
    ["the network", { network: UNKNOWN }],
    ["suspended", { suspended: UNKNOWN }],
    ["the suspend options", { suspendOptions: UNKNOWN }],
    ["the drain timeout", { suspendOptions: { drainWorkloads: true, drainTimeout: UNKNOWN } }],
  ])("lets the unknown sentinel through in place of %s", async (_, patch) => {
    const { failures } = await vclusterHandler.check({}, { ...raw, ...patch });
    expect(failures).toEqual([]);
  });
});

const OUTPUTS: Props = { vclusterId: "vc-1", phase: "RUNNING", kubeconfig: "apiVersion: v1\n", readyReplicas: 1 };
const NO_CHANGE = { changes: false, replaces: [], deleteBeforeReplace: false };
const IN_PLACE = { changes: true, replaces: [], deleteBeforeReplace: false };

async function diffOf(oldPatch: Props, newPatch: Props) {
  const { inputs: olds } = await vclusterHandler.check({}, { ...raw, name: "dev", ...oldPatch });
  const { inputs: news, failures } = await vclusterHandler.check(olds, { ...raw, name: "dev", ...newPatch });
  expect(failures).toEqual([]);
  return vclusterHandler.diff("vc-1", { ...olds, ...OUTPUTS }, news);
}

describe("vclusterHandler.diff", () => {
  it.each<[string, Props, Props, object]>([
    ["plans nothing when nothing changed", { replicas: 1 }, { replicas: 1 }, NO_CHANGE],
    ["plans nothing when timeouts change", {}, { timeouts: { create: "1m" } }, NO_CHANGE],
    ["plans nothing when restoreFrom changes after creation", { restoreFrom: "snap-1" }, { restoreFrom: "snap-2" }, NO_CHANGE],
    ["plans nothing when only the suspend options change: they shape the next suspend", {}, { suspendOptions: { drainWorkloads: true, createSnapshot: true } }, NO_CHANGE],
    ["suspends in place with suspend options", {}, { suspended: true, suspendOptions: { drainWorkloads: true } }, IN_PLACE],
    ["scales in place when replicas change", {}, { replicas: 3 }, IN_PLACE],
    ["scales in place when resources change", {}, { resources: { cpuLimit: "2" } }, IN_PLACE],
    ["updates in place when kubernetesVersion changes", {}, { kubernetesVersion: "1.29.0" }, IN_PLACE],
    ["updates in place when enableHa changes", {}, { enableHa: true }, IN_PLACE],
    ["updates in place when helmValues change", {}, { helmValues: "a: 1" }, IN_PLACE],
    ["updates in place when sync changes", {}, { sync: { syncNodes: true } }, IN_PLACE],
    ["updates in place when plugins change", {}, { plugins: [{ name: "p" }] }, IN_PLACE],
    ["updates in place when ingress changes", {}, { ingress: { enabled: true } }, IN_PLACE],
    ["updates in place when serviceAccount changes", {}, { serviceAccount: { name: "x" } }, IN_PLACE],
    ["updates labels in place", {}, { labels: { env: "dev" } }, IN_PLACE],
    ["suspends in place", {}, { suspended: true }, IN_PLACE],
    ["replaces when the name changes", {}, { name: "dev2" }, { changes: true, replaces: ["name"], deleteBeforeReplace: true }],
    ["replaces when the namespace changes", {}, { namespace: "team-b" }, { changes: true, replaces: ["namespace"], deleteBeforeReplace: true }],
    ["replaces when the distro changes", {}, { distro: "k8s" }, { changes: true, replaces: ["distro"], deleteBeforeReplace: true }],
    ["replaces when the network changes", {}, { network: { podCidr: "10.0.0.0/16" } }, { changes: true, replaces: ["network"], deleteBeforeReplace: true }],
    ["replaces when storage changes", {}, { storage: { enablePersistence: true } }, { changes: true, replaces: ["storage"], deleteBeforeReplace: true }],
    ["replaces when isolationMode changes", {}, { isolationMode: "full" }, { changes: true, replaces: ["isolationMode"], deleteBeforeReplace: true }],
    ["replaces when the owner changes", {}, { vclusterOwner: "bob" }, { changes: true, replaces: ["vclusterOwner"], deleteBeforeReplace: true }],
    ["replaces when the project changes", {}, { project: "p" }, { changes: true, replaces: ["project"], deleteBeforeReplace: true }],
  ])("%s", async (_, oldPatch, newPatch, expected) => {
    expect(await diffOf(oldPatch, newPatch)).toEqual(expected);
  });

  it("gives a derived name a new hash when a replace field changes", async () => {
    const { inputs: a } = await vclusterHandler.check({}, raw);
    const { inputs: b } = await vclusterHandler.check(a, { ...raw, distro: "k8s" });
    const { inputs: c } = await vclusterHandler.check(a, { ...raw, replicas: 3 });
    expect([b.name === a.name, c.name === a.name]).toEqual([false, true]);
  });
});

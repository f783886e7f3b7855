import type { ImportHandler } from "./import-kit";

// The import of each kind, by the kind's type as the registry routes it (`cmassh:Cluster`). Loaded
// lazily, like the handlers: importing one kind loads only its platform's code. The native plugin
// calls `(await importerFor(type)).importObject(id, { owner, resourceName }, config)` when the engine sends
// Read with an id and no properties.
const IMPORTERS: Readonly<Record<string, () => Promise<ImportHandler>>> = {
  "cmassh:Cluster": async () => (await import("./cmassh/cluster/import")).clusterImport,
  "cmassh:NodePool": async () => (await import("./cmassh/node-pool/import")).nodePoolImport,
  "peloton:ResourcePool": async () => (await import("./peloton/resource-pool/import")).resourcePoolImport,
  "peloton:StatelessJob": async () => (await import("./peloton/stateless-job/import")).statelessJobImport,
  "vcluster:VCluster": async () => (await import("./vcluster/vcluster/import")).vclusterImport,
  "vcluster:Snapshot": async () => (await import("./vcluster/snapshot/import")).snapshotImport,
  "senlin:Cluster": async () => (await import("./senlin/cluster/import")).clusterImport,
  "senlin:Profile": async () => (await import("./senlin/profile/import")).profileImport,
  "senlin:Policy": async () => (await import("./senlin/policy/import")).policyImport,
  "cyclecloud:NodePool": async () => (await import("./cyclecloud/node-pool/import")).nodePoolImport,
};

/** The resource types that can be imported. */
export const IMPORTABLE_TYPES: readonly string[] = Object.keys(IMPORTERS);

/**
 * The import of a resource type, e.g. `cmassh:Cluster`.
 * @throws Error naming the type and the importable ones when it has none.
 */
export async function importerFor(type: string): Promise<ImportHandler> {
  const load = IMPORTERS[type];
  if (!load) throw new Error(`clusterform: resource type "${type}" cannot be imported; importable: ${IMPORTABLE_TYPES.join(", ")}`);
  return load();
}

import type { VClusterState } from "../../../clients/vcluster/types";
import { OWNER_LABEL_KEY } from "../../../core/naming";
import type { ImportDefinition, OperationContext } from "../../../core/contract";
import { readDeadline } from "../../fields";
import { findVCluster, vclusterClient } from "../common";
import { labelSelector } from "../lookup-args";
import { VCLUSTER_TIMEOUTS } from "./schema";
import { outputsOf, SPEC_FIELDS } from "./state";

type Props = Record<string, unknown>;

/**
 * A wire value without its proto3 zero values ("", 0, false, empty lists and messages), which mean
 * "not set" on this API: what is left is what someone chose (or the server filled in).
 */
function chosen(value: unknown): unknown {
  if (value === "" || value === 0 || value === false || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(chosen).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value !== "object") return value;
  const entries = Object.entries(value).flatMap(([k, v]) => {
    const kept = chosen(v);
    return kept === undefined ? [] : [[k, kept] as const];
  });
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function inputsOf(state: VClusterState): Props {
  const { [OWNER_LABEL_KEY]: _marker, owner, project, ...labels } = state.labels;
  const spec = state.spec as Props;
  const inputs: Props = {
    name: state.name,
    namespace: state.namespace,
    ...Object.fromEntries(SPEC_FIELDS.map((field) => [field, chosen(spec[field])])),
    labels: Object.keys(labels).length > 0 ? labels : undefined,
    vclusterOwner: state.owner || owner || undefined,
    project: state.project || project || undefined,
    suspended: state.phase === "SUSPENDED" ? true : undefined,
  };
  return Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined));
}

/**
 * Import of `vcluster:VCluster` by its vcluster id (`vc-<unix>-<n>`), the id create records. The id
 * is found among ListVClusters of every namespace, then read with its kubeconfig (a secret output).
 * The API reports the spec (with the server's defaults filled in), labels, owner, project and the
 * phase (`suspended`); `restoreFrom` is used at creation only and is not reported.
 */
export const vclusterImport: ImportDefinition = {
  platform: "vcluster",
  idPattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
  async read(ctx, id) {
    const client = await vclusterClient(ctx.config);
    const deadline = readDeadline({}, VCLUSTER_TIMEOUTS);
    let found: VClusterState | undefined;
    for (let pageToken = ""; ; ) {
      const page = await client.listVClusters({ pageSize: 100, pageToken }, { deadline });
      found = page.items.find((v) => v.id === id);
      if (found || !page.nextPageToken) break;
      pageToken = page.nextPageToken;
    }
    const live = found && (await findVCluster(client, { name: found.name, namespace: found.namespace }, deadline, true));
    return live ? { inputs: inputsOf(live), outputs: outputsOf(live) } : undefined;
  },
};

/** The vclusters matching the API's namespace and label filters (ListVClusters, every page), for `getVClusters`. */
export async function listVClusters(ctx: OperationContext, args: Props): Promise<Props[]> {
  const client = await vclusterClient(ctx.config);
  const filter = { namespace: typeof args.namespace === "string" ? args.namespace : "", labelSelector: labelSelector(args.labels) };
  const all = await client.listAllVClusters(filter, { deadline: readDeadline({}, VCLUSTER_TIMEOUTS) });
  return all.map((state) => ({ id: state.id, ...inputsOf(state), ...outputsOf(state) }));
}

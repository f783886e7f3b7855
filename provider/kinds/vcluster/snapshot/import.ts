import type { SnapshotState } from "../../../clients/vcluster/types";
import { OWNER_LABEL_KEY } from "../../../core/naming";
import type { ImportDefinition, OperationContext } from "../../../core/contract";
import { readDeadline } from "../../fields";
import { isNotFound, vclusterClient } from "../common";
import { labelSelector } from "../lookup-args";
import { outputsOf } from "./operations";
import { SNAPSHOT_TIMEOUTS } from "./schema";

type Props = Record<string, unknown>;
const HOUR_MS = 3_600_000;

/** The retention the snapshot was taken with: its expiry less its creation, in whole hours; none when kept until deleted. */
function retentionHoursOf(s: SnapshotState): number | undefined {
  const [created, expires] = [Date.parse(s.createTime), Date.parse(s.expireTime)];
  return s.expireTime && Number.isFinite(created) && Number.isFinite(expires) ? Math.round((expires - created) / HOUR_MS) : undefined;
}

function inputsOf(s: SnapshotState): Props {
  const { [OWNER_LABEL_KEY]: _owner, ...labels } = s.labels;
  const inputs: Props = {
    name: s.name,
    vclusterName: s.vclusterName,
    namespace: s.namespace,
    description: s.description || undefined,
    retentionHours: retentionHoursOf(s),
    labels: Object.keys(labels).length > 0 ? labels : undefined,
  };
  return Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined));
}

/**
 * Import of `vcluster:Snapshot` by its snapshot id (`snap-<unix>-<n>`, as GetSnapshot reports it),
 * the id create records. The API reports the name, vcluster, namespace, description, labels and the
 * expiry (from which `retentionHours` follows); whether workloads were included is not reported.
 */
export const snapshotImport: ImportDefinition = {
  platform: "vcluster",
  idPattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
  async read(ctx, id) {
    try {
      const snapshot = await (await vclusterClient(ctx.config)).getSnapshot({ id }, { deadline: readDeadline({}, SNAPSHOT_TIMEOUTS) });
      return { inputs: inputsOf(snapshot), outputs: outputsOf(snapshot) };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  },
};

/** The snapshots matching the API's vcluster, namespace and label filters (ListSnapshots, every page), for `getSnapshots`. */
export async function listSnapshots(ctx: OperationContext, args: Props): Promise<Props[]> {
  const client = await vclusterClient(ctx.config);
  const text = (key: string) => (typeof args[key] === "string" ? String(args[key]) : "");
  const filter = { vclusterName: text("vclusterName"), namespace: text("namespace"), labelSelector: labelSelector(args.labels) };
  const deadline = readDeadline({}, SNAPSHOT_TIMEOUTS);
  const all: SnapshotState[] = [];
  for (let pageToken = ""; ; ) {
    const page = await client.listSnapshots({ ...filter, pageSize: 100, pageToken }, { deadline });
    all.push(...page.items);
    if (!page.nextPageToken) break;
    pageToken = page.nextPageToken;
  }
  return all.map((s) => ({ id: s.id, ...inputsOf(s), ...outputsOf(s) }));
}

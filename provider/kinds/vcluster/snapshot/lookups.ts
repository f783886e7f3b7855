import { lookupList, lookupObject, type Lookup } from "../../../core/definition/lookup";
import { optional, required, v } from "../../../core/definition/values";
import { labelsFilter, vclusterIdValue } from "../lookup-args";
import { snapshotKind } from "./schema";

const q = (s: unknown) => JSON.stringify(s);

/** `vcluster:Snapshot`'s lookups: one snapshot by id, and the snapshots of a vcluster, namespace or labels. */
export const snapshotLookups: readonly Lookup[] = [
  lookupObject(snapshotKind, "vcluster", {
    description:
      "Reads a vcluster snapshot by id without managing it (GetSnapshot): its name, vcluster, namespace, description, labels, " +
      "retention, status, size, storage URI and expiry; give `snapshotId` to a vcluster's `restoreFrom`.",
    args: { id: required(vclusterIdValue(), { description: "The snapshot's id, e.g. `snap-1700000002-1` (`getSnapshots` lists them).", example: "snap-1700000002-1" }) },
    importId: (args) => String(args.id),
    key: (args) => `id ${q(args.id)}`,
  }),
  lookupList(snapshotKind, "vcluster", {
    name: "getSnapshots",
    description: "Lists snapshots with the API's own filters (ListSnapshots: vcluster, namespace, label selector), each with what `getSnapshot` reports.",
    args: {
      vclusterName: optional(v.string(), { description: "Only snapshots of this vcluster.", default: "every vcluster" }),
      namespace: optional(v.string(), { description: "Only snapshots of this namespace.", default: "every namespace" }),
      labels: labelsFilter("snapshots"),
    },
    items: "snapshots",
    fields: ["name", "vclusterName", "namespace", "description", "retentionHours", "labels", "snapshotId", "status", "vclusterId", "sizeBytes", "storageUri", "expireTime"],
    read: async () => (await import("./import")).listSnapshots,
  }),
];

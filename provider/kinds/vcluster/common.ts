import type { VclusterClient } from "../../clients/vcluster/client";
import type { VClusterRef } from "../../clients/vcluster/requests";
import type { VClusterState } from "../../clients/vcluster/types";
import { clientCache, endpointSettings } from "../../core/client-cache";
import type { ConfigReader } from "../../core/config";
import type { Deadline } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";
import { OWNER_LABEL_KEY } from "../../core/naming";

/**
 * The vcluster client for the endpoint the configuration names now, one per endpoint and call
 * settings (core/client-cache.ts), so one run reuses its HTTP/2 connection.
 */
export const vclusterClient: (config: ConfigReader) => Promise<VclusterClient> = clientCache(
  (config) => endpointSettings("vcluster", config),
  async (settings) => (await import("../../clients/vcluster/client")).createVclusterClient(settings),
);

/** True when `err` is the platform saying the object does not exist. */
export function isNotFound(err: unknown): boolean {
  return err instanceof ClusterformError && err.code === "NotFound";
}

/** GetVCluster, with NotFound as undefined. */
export async function findVCluster(
  client: VclusterClient,
  ref: VClusterRef,
  deadline: Deadline,
  includeKubeconfig = false,
): Promise<VClusterState | undefined> {
  try {
    return await client.getVCluster({ ...ref, includeKubeconfig }, { deadline });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * The labels sent to the platform: the user's, the ownership marker, and `owner` / `project`,
 * which is how this API carries them (CreateVClusterRequest has no fields for them).
 */
export function platformLabels(inputs: { labels?: Record<string, string>; owner: string; vclusterOwner?: string; project?: string }): Record<string, string> {
  const extra: Record<string, string> = { [OWNER_LABEL_KEY]: inputs.owner };
  if (inputs.vclusterOwner) extra.owner = inputs.vclusterOwner;
  if (inputs.project) extra.project = inputs.project;
  return { ...inputs.labels, ...extra };
}

/** True when the labels carry this resource's ownership marker. */
export function isOwnedBy(labels: Record<string, string>, owner: string): boolean {
  return labels[OWNER_LABEL_KEY] === owner;
}

/** `namespace/name`, the vcluster's identity and the key of every call. */
export function keyOf(ref: VClusterRef): string {
  return `${ref.namespace}/${ref.name}`;
}

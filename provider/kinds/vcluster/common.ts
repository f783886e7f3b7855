import type { VclusterClient } from "../../clients/vcluster/client";
import type { VClusterRef } from "../../clients/vcluster/requests";
import type { VClusterState } from "../../clients/vcluster/types";
import { type ConfigReader, resolveCallSettings, resolveEndpoint } from "../../core/config";
import type { Deadline } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";
import { OWNER_LABEL_KEY } from "../../core/naming";

const clients = new Map<string, Promise<VclusterClient>>();

/**
 * The vcluster client for the endpoint the configuration names now. Endpoints are resolved at every
 * call (never captured); clients are kept per endpoint so one run reuses its HTTP/2 connection.
 */
export function vclusterClient(config: ConfigReader): Promise<VclusterClient> {
  const { url } = resolveEndpoint("vcluster", config);
  const settings = resolveCallSettings(config);
  const key = JSON.stringify([url, settings]);
  let client = clients.get(key);
  if (!client) {
    // Imported at the first platform call: check and diff (a preview) never load the client and
    // its transport (gRPC, protobuf).
    client = import("../../clients/vcluster/client").then((m) => m.createVclusterClient({ endpoint: url, ...settings }));
    clients.set(key, client);
  }
  return client;
}

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

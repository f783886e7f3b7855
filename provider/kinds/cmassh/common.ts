import type { CmasshClient } from "../../clients/cmassh/client";
import type { ClusterDetail, KubernetesLabel } from "../../clients/cmassh/types";
import { ALREADY_EXISTS, type Answer } from "../../core/call-policy";
import { clientCache, endpointSettings } from "../../core/client-cache";
import type { ConfigReader } from "../../core/config";
import type { Deadline } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";
import { OWNER_LABEL_KEY } from "../../core/naming";
import { waitFor } from "../../core/wait";

/**
 * The cma-ssh client for the endpoint the configuration names now, one per endpoint and call
 * settings (core/client-cache.ts), so one run reuses its HTTP/2 connection.
 */
export const cmasshClient: (config: ConfigReader) => Promise<CmasshClient> = clientCache(
  (config) => endpointSettings("cmassh", config),
  async (settings) => (await import("../../clients/cmassh/client")).createCmasshClient(settings),
);

/** The user's labels plus the ownership marker, as cma-ssh carries labels. */
export function toPlatformLabels(labels: Record<string, string> | undefined, owner: string): KubernetesLabel[] {
  const all: Record<string, string> = { ...labels, [OWNER_LABEL_KEY]: owner };
  return Object.keys(all)
    .sort()
    .map((name) => ({ name, value: all[name] }));
}

/** GetCluster, with NotFound as undefined. */
export async function findCluster(client: CmasshClient, name: string, deadline: Deadline): Promise<ClusterDetail | undefined> {
  try {
    return await client.getCluster(name, { deadline });
  } catch (err) {
    if (err instanceof ClusterformError && err.code === "NotFound") return undefined;
    throw err;
  }
}

/** The answers meaning a create met an object of its name: cma-ssh answers INTERNAL "... already exists". */
export const CMASSH_EXISTS: readonly Answer[] = [...ALREADY_EXISTS, { code: "Internal", message: /already exists/i }];

/** How long to trust a RUNNING status that was never preceded by the operation's own status. */
const SETTLE_MS = 3_000;

/**
 * Waits until the cluster is RUNNING after an operation. A real cma-ssh server flips the status only
 * once its controller picks the change up, so a RUNNING seen before any PROVISIONING/RECONCILING
 * counts only after a short settling time; ERROR ends the wait at once.
 * @param opts.progress - where progress messages go. @default none
 * @param opts.after - the cluster's own operation the wait follows, named in messages (e.g. `UpgradeCluster to "1.31.6"`). @default none
 * @param opts.by - whose operation waits when it is not the cluster's, put before messages and errors
 *   (e.g. `pool "general": ScaleNodePool to 5`), so a pool's row does not read as the cluster's. @default none
 * @param opts.sent - whether the caller has just sent the cluster a change; when it has not (an
 *   update that changes nothing on the platform), RUNNING needs no settling time. @default true
 * @returns the final cluster and the number of polls.
 */
export async function waitForRunning(
  client: CmasshClient,
  name: string,
  deadline: Deadline,
  opts: { progress?: (message: string) => unknown; after?: string; by?: string; sent?: boolean } = {},
): Promise<{ cluster: ClusterDetail; polls: number }> {
  const { progress, after, by, sent = true } = opts;
  const started = deadline.now();
  let sawWork = !sent;
  const result = await waitFor({
    poll: () => client.getCluster(name, { deadline }),
    isDone: (c) => {
      if (c.status !== "RUNNING") sawWork = true;
      return c.status === "RUNNING" && (sawWork || deadline.now() - started >= SETTLE_MS);
    },
    failure: (c) => (c.status === "ERROR" ? `cluster ${JSON.stringify(name)} is in ERROR: ${c.statusMessage || "no detail given"}` : undefined),
    describe: (c) => `status ${c.status}${c.statusMessage ? ` (${c.statusMessage})` : ""}`,
    deadline,
    what: `cluster ${JSON.stringify(name)} to be RUNNING${after ? ` after ${after}` : ""}`,
    by,
    progress,
  });
  return { cluster: result.value, polls: result.polls };
}

/** Waits until GetCluster answers NOT_FOUND. */
export async function waitForGone(
  client: CmasshClient,
  name: string,
  deadline: Deadline,
  progress?: (message: string) => unknown,
): Promise<void> {
  await waitFor({
    poll: () => findCluster(client, name, deadline),
    isDone: (c) => c === undefined,
    describe: (c) => (c ? `status ${c.status}` : "gone"),
    deadline,
    what: `cluster ${JSON.stringify(name)} to be deleted`,
    progress,
  });
}

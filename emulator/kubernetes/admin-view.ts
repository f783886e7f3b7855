import { KINE_VERSION, KUBE_VERSION } from "./binaries";
import type { LocalKubernetes } from "./host";

/**
 * `/_local/kubernetes/api-servers`: every cluster's API server with its port, state, process ids and
 * resident memory, and kine's process id. Tokens and keys never appear.
 */
export function kubernetesViews(host: LocalKubernetes): Record<string, () => unknown> {
  return {
    "/_local/kubernetes/api-servers": () => ({
      kubernetesVersion: KUBE_VERSION,
      kineVersion: KINE_VERSION,
      kinePid: host.kinePid() ?? 0,
      apiServers: host.list(),
    }),
  };
}

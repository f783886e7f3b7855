import type { SenlinEnv } from "./context";
import { settleDueActions } from "./lifecycle";
import { DEFAULT_MAX_MICROVERSION } from "./microversion";
import { renderAction, renderCluster, renderNode, renderPolicy, renderProfile } from "./render";

/** Everything is shown at the newest microversion, whatever the server is configured to answer. */
const NEWEST = DEFAULT_MAX_MICROVERSION;

/** Clusters of every project, each with its member nodes, attached policies and unfinished actions. */
function clustersView(env: SenlinEnv) {
  const { store } = env;
  return {
    clusters: store.clusters.list(undefined).map((cluster) => ({
      ...renderCluster(store, cluster),
      members: store.members(cluster.id).map((n) => renderNode(store, n, NEWEST)),
      bindings: store.bindings(cluster.id).map((b) => ({ policy_id: b.policyId, enabled: b.enabled })),
      actions_in_flight: store.activeActions(cluster.id).map((a) => renderAction(a, NEWEST)),
    })),
  };
}

/** Admin views under `/_local/senlin/`, settled at the current time, across every project. */
export function senlinAdminViews(env: SenlinEnv): Record<string, () => unknown> {
  const settled = <T>(view: () => T) => () => {
    settleDueActions(env, env.clock.now());
    return view();
  };
  const { store } = env;
  return {
    "/_local/senlin/clusters": settled(() => clustersView(env)),
    "/_local/senlin/nodes": settled(() => ({ nodes: store.nodes.list(undefined).map((n) => renderNode(store, n, NEWEST)) })),
    "/_local/senlin/actions": settled(() => ({ actions: store.actions.list(undefined).map((a) => renderAction(a, NEWEST)) })),
    "/_local/senlin/policies": settled(() => ({
      policies: store.policies.list(undefined).map((p) => ({ ...renderPolicy(p), clusters: store.clustersOfPolicy(p.id) })),
    })),
    "/_local/senlin/profiles": settled(() => ({ profiles: store.profiles.list(undefined).map(renderProfile) })),
    "/_local/senlin/receivers": settled(() => ({
      receivers: store.receivers.list(undefined).map((r) => ({ id: r.id, name: r.name, type: r.type, cluster_id: r.clusterId, action: r.action, params: r.params })),
    })),
  };
}

import { z } from "zod";
import { BadRequest } from "../admin";
import { measureCapacity, tallyOf } from "./capacity";
import type { CycleCloudEnv } from "./context";
import { DefinitionError, parseClusterDefinition } from "./definitions";
import { STATUS_OF } from "./lifecycle";
import { toNodeRecord } from "./node-record";
import { toOperationStatus } from "./query-handlers";
import { currentState, preemptNode, settleNodes } from "./settle";

const PREFIX = "/_local/cyclecloud";

function settled(env: CycleCloudEnv): number {
  const now = env.clock.now();
  settleNodes(env.db, env.store, now);
  return now;
}

/** Every cluster's definition with the nodes and cores each nodearray has in use. */
function clustersView(env: CycleCloudEnv): unknown {
  const now = settled(env);
  const all = env.store.listNodes();
  const clusters = env.store.listClusters();
  return {
    clusters: clusters.map((cluster) => {
      const capacity = measureCapacity(clusters, cluster.name, all, now);
      return {
        ...cluster,
        nodearrays: cluster.nodearrays.map((n) => {
          const active = tallyOf(capacity.byNodearray, n.name);
          return { ...n, activeCount: active.count, activeCoreCount: active.cores };
        }),
      };
    }),
  };
}

/** Every node with a record, its derived state, and the transition or preemption ahead of it. */
function nodesView(env: CycleCloudEnv): unknown {
  const now = settled(env);
  const byName = new Map(env.store.listClusters().map((c) => [c.name, c]));
  return {
    nodes: env.store.listNodes().map((node) => {
      const state = currentState(node, now);
      const cluster = byName.get(node.cluster);
      return {
        cluster: node.cluster,
        name: node.name,
        id: node.id,
        nodearray: node.nodearray,
        machineType: node.machineType,
        state,
        status: STATUS_OF[state],
        targetState: cluster ? toNodeRecord(cluster, node, now).TargetState : "",
        statusMessage: node.statusMessage,
        privateIp: node.ip,
        placementGroup: node.placementGroup,
        attributes: node.attributes,
        transition: node.transition ? { kind: node.transition.kind, endsAt: new Date(node.transition.endMs).toISOString() } : null,
        preemptAt: node.preemptAtMs === undefined ? null : new Date(node.preemptAtMs).toISOString(),
      };
    }),
  };
}

/** Every operation with its id, request id and the names of the nodes it changed. */
function operationsView(env: CycleCloudEnv): unknown {
  settled(env);
  const names = new Map(env.store.listNodes().map((n) => [n.id, n.name]));
  return {
    operations: env.store.listOperations().map((op) => ({
      id: op.id,
      cluster: op.cluster,
      requestId: op.requestId ?? null,
      ...toOperationStatus(op),
      nodeIds: env.store.operationNodeIds(op.id),
      nodes: env.store.operationNodeIds(op.id).map((id) => names.get(id) ?? null),
    })),
  };
}

/** The admin views under `/_local/cyclecloud/`. */
export function cycleCloudViews(env: CycleCloudEnv): Record<string, () => unknown> {
  return {
    [`${PREFIX}/clusters`]: () => clustersView(env),
    [`${PREFIX}/nodes`]: () => nodesView(env),
    [`${PREFIX}/operations`]: () => operationsView(env),
  };
}

const preemptBody = z.strictObject({ cluster: z.string().min(1), name: z.string().min(1) });

function defineCluster(env: CycleCloudEnv, body: unknown): unknown {
  try {
    const definition = parseClusterDefinition(body);
    env.store.putCluster(definition);
    return { cluster: definition };
  } catch (error) {
    if (error instanceof DefinitionError) throw new BadRequest(error.message);
    throw error;
  }
}

function deleteCluster(env: CycleCloudEnv, url: URL): unknown {
  const name = url.searchParams.get("name");
  if (!name) throw new BadRequest('invalid query parameter "name": required, the cluster to delete');
  const now = settled(env);
  if (!env.store.deleteCluster(name, now)) throw new BadRequest(`cluster "${name}" is not defined`);
  return {};
}

function preempt(env: CycleCloudEnv, body: unknown): unknown {
  const parsed = preemptBody.safeParse(body);
  if (!parsed.success) throw new BadRequest('invalid body: expected {"cluster": "<cluster>", "name": "<node name>"}');
  const now = settled(env);
  const node = env.store.listNodes(parsed.data.cluster).find((n) => n.name === parsed.data.name);
  if (!node) throw new BadRequest(`node "${parsed.data.name}" not found in cluster "${parsed.data.cluster}"`);
  const state = currentState(node, now);
  if (state !== "Ready") throw new BadRequest(`node "${node.name}" is ${state}; only Ready nodes can be preempted`);
  preemptNode(env.store, node, now);
  return { name: node.name, state: "Failed" };
}

/**
 * Admin actions: `POST /_local/cyclecloud/clusters` defines (or redefines) a cluster from a
 * definition body; `DELETE /_local/cyclecloud/clusters?name=` deletes one with its nodes;
 * `POST /_local/cyclecloud/nodes/preempt` `{cluster, name}` evicts a Ready node now.
 */
export function cycleCloudActions(env: CycleCloudEnv): Record<string, Record<string, (body: unknown, url: URL) => unknown>> {
  return {
    [`${PREFIX}/clusters`]: { POST: (body) => defineCluster(env, body), DELETE: (_body, url) => deleteCluster(env, url) },
    [`${PREFIX}/nodes/preempt`]: { POST: (body) => preempt(env, body) },
  };
}

import { inTransaction } from "../database";
import { beginOperation, type CmasshEnv, type CmasshHandlers, loadMutableCluster, toPoolRecords } from "./context";
import { asCreateFailure, assertNodeCount, notFound } from "./validation";

type PoolHandlers = Pick<CmasshHandlers, "addNodePool" | "deleteNodePool" | "scaleNodePool">;

/**
 * Node pool RPCs. Pool specs change when the call is accepted (as MachineSets do in the real
 * server); the cluster reconciles for the operation's duration. A call naming no pool changes nothing.
 */
export function createPoolHandlers(env: CmasshEnv): PoolHandlers {
  return {
    addNodePool(request, ctx) {
      const { cluster } = loadMutableCluster(env, request.clusterName);
      const pools = asCreateFailure(() => toPoolRecords(request.workerNodePools, env.store.listPools(cluster.id)));
      if (pools.length === 0) return { ok: true };
      inTransaction(env.store.db, () => {
        for (const pool of pools) env.store.insertPool(cluster.id, pool);
        beginOperation(env, ctx, cluster.id, "add-pool");
      });
      return { ok: true };
    },

    deleteNodePool(request, ctx) {
      const { cluster } = loadMutableCluster(env, request.clusterName);
      const existing = new Set(env.store.listPools(cluster.id).map((p) => p.name));
      const missing = request.nodePoolNames.find((name) => !existing.has(name));
      if (missing !== undefined) throw notFound("node pool", missing);
      if (request.nodePoolNames.length === 0) return { ok: true };
      inTransaction(env.store.db, () => {
        for (const name of request.nodePoolNames) env.store.deletePool(cluster.id, name);
        beginOperation(env, ctx, cluster.id, "delete-pool");
      });
      return { ok: true };
    },

    scaleNodePool(request, ctx) {
      const { cluster } = loadMutableCluster(env, request.clusterName);
      const existing = new Set(env.store.listPools(cluster.id).map((p) => p.name));
      for (const spec of request.nodePools) {
        if (!existing.has(spec.name)) throw notFound("node pool", spec.name);
        assertNodeCount(`node pool "${spec.name}"`, spec.count);
      }
      if (request.nodePools.length === 0) return { ok: true };
      inTransaction(env.store.db, () => {
        for (const spec of request.nodePools) env.store.setPoolCount(cluster.id, spec.name, spec.count);
        beginOperation(env, ctx, cluster.id, "scale-pool");
      });
      return { ok: true };
    },
  };
}

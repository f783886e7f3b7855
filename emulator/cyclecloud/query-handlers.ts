import { type CycleCloudEnv, invalidInput, loadCluster, notFound, type RestCall, type RestReply } from "./context";
import { toNodeRecord } from "./node-record";
import { settleNodes } from "./settle";
import type { OperationRow } from "./store";

/** OperationStatus: only `action` and `startTime` (ISO 8601 to the second); CycleCloud reports no progress here. */
export function toOperationStatus(op: OperationRow): { action: string; startTime: string } {
  return { action: op.action, startTime: new Date(op.startMs).toISOString().replace(/\.\d{3}Z$/, "Z") };
}

function operationFor(env: CycleCloudEnv, query: URLSearchParams): OperationRow | undefined {
  const id = query.get("operation");
  const requestId = query.get("request_id");
  if (id !== null && requestId !== null) throw invalidInput("invalid query: give operation or request_id, not both");
  if (id !== null) {
    const op = env.store.findOperation(id);
    if (!op) throw notFound(`operation "${id}" not found`);
    return op;
  }
  if (requestId !== null) {
    const op = env.store.findOperationByRequestId(requestId);
    if (!op) throw notFound(`no operation with request id "${requestId}"`);
    return op;
  }
  return undefined;
}

/**
 * GET /clusters/{cluster}/nodes: every node of the cluster, or (with `operation` or `request_id`)
 * the nodes that operation changed and still have a record, plus the operation's status.
 */
export function getNodes(env: CycleCloudEnv, call: RestCall): RestReply {
  const cluster = loadCluster(env, call.params[0]);
  const op = operationFor(env, call.query);
  if (op && op.cluster !== cluster.name) throw notFound(`operation not found in cluster "${cluster.name}"`);
  const now = env.clock.now();
  const nodes = env.store.listNodes(cluster.name);
  const wanted = op ? new Set(env.store.operationNodeIds(op.id)) : undefined;
  const records = nodes.filter((n) => !wanted || wanted.has(n.id)).map((n) => toNodeRecord(cluster, n, now));
  return { status: 200, body: op ? { nodes: records, operation: toOperationStatus(op) } : { nodes: records } };
}

/** GET /operations/: every operation, or the 0 or 1 a `request_id` names. */
export function listOperations(env: CycleCloudEnv, call: RestCall): RestReply {
  settleNodes(env.db, env.store, env.clock.now());
  const requestId = call.query.get("request_id");
  if (requestId === "") throw invalidInput('invalid query parameter "request_id": got "", expected a request id');
  const ops = requestId === null ? env.store.listOperations() : [env.store.findOperationByRequestId(requestId)].filter((o) => o !== undefined);
  return { status: 200, body: ops.map(toOperationStatus) };
}

/** GET /operations/{id}: one operation's status; 404 if unknown. */
export function getOperation(env: CycleCloudEnv, call: RestCall): RestReply {
  const op = env.store.findOperation(call.params[0]);
  if (!op) throw notFound(`operation "${call.params[0]}" not found`);
  return { status: 200, body: toOperationStatus(op) };
}

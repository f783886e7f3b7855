import { randomUUID } from "node:crypto";
import { z } from "zod";
import { inTransaction } from "../database";
import { addNodes, type NodeSet, type SetResult, type StartFaults } from "./add-nodes";
import { accepted, assertNewRequestId, type CycleCloudEnv, findNodearray, invalidInput, loadCluster, type RestCall, type RestReply } from "./context";
import type { ClusterDefinition } from "./definitions";
import { machineTypeOf } from "./machine-types";
import { currentState } from "./settle";

const creationRequestSchema = z.object({
  requestId: z.string().min(1).optional(),
  sets: z
    .array(
      z.object({
        count: z.number().int().nonnegative(),
        nodearray: z.string().min(1),
        definition: z.object({ machineType: z.string().min(1).optional() }).optional(),
        nameFormat: z
          .string()
          .refine((f) => f.split("%d").length === 2, 'expected exactly one "%d", e.g. "custom-name-%d"')
          .optional(),
        nameOffset: z.number().int().nonnegative().optional(),
        nodeAttributes: z.record(z.string(), z.unknown()).optional(),
        placementGroupId: z.string().min(1).optional(),
      }),
    )
    .min(1),
});

type CreationRequest = z.infer<typeof creationRequestSchema>;

/** Validates a JSON body with a schema; 409 naming the field, the value and what is allowed. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    const got = issue.path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k as PropertyKey], body);
    return `${field === "" ? "body" : `field "${field}"`}: got ${JSON.stringify(got) ?? "nothing"}, ${issue.message}`;
  });
  throw invalidInput(`invalid ${what}: ${issues.join("; ")}`);
}

function toNodeSet(cluster: ClusterDefinition, set: CreationRequest["sets"][number], index: number, requestId?: string): NodeSet {
  const nodearray = findNodearray(cluster, set.nodearray);
  if (!nodearray) {
    const allowed = cluster.nodearrays.map((n) => n.name).join(", ");
    throw invalidInput(`invalid field "sets.${index}.nodearray": got "${set.nodearray}", allowed in cluster "${cluster.name}": ${allowed}`);
  }
  const wanted = set.definition?.machineType;
  const bucket = wanted === undefined ? nodearray.buckets[0] : nodearray.buckets.find((b) => b.machineType === wanted);
  if (!bucket) {
    const allowed = nodearray.buckets.map((b) => b.machineType).join(", ");
    throw invalidInput(`invalid field "sets.${index}.definition.machineType": got "${wanted}", allowed in nodearray "${nodearray.name}": ${allowed}`);
  }
  const { count, nameFormat, nameOffset, nodeAttributes, placementGroupId } = set;
  return { nodearray, bucket, count, nameFormat, nameOffset, nodeAttributes, placementGroupId, requestId };
}

function runCreation(env: CycleCloudEnv, call: RestCall, cluster: ClusterDefinition, sets: NodeSet[], requestId?: string): RestReply {
  const faults: StartFaults = { info: call.info, operationFailure: call.ctx.takeOperationFailure() };
  const operationId = randomUUID();
  const results = inTransaction(env.db, () => {
    env.store.insertOperation({ id: operationId, cluster: cluster.name, action: "create", requestId, startMs: env.clock.now() });
    return sets.map((set) => {
      const result: SetResult = addNodes(env, cluster, set, faults);
      env.store.linkNodes(operationId, result.nodeIds);
      return result;
    });
  });
  return accepted(env, operationId, { operationId, sets: results.map(({ added, message }) => (message === undefined ? { added } : { added, message })) });
}

/** POST /clusters/{cluster}/nodes/create: adds each set's nodes, fewer when a quota or limit binds. */
export function createNodes(env: CycleCloudEnv, call: RestCall): RestReply {
  const cluster = loadCluster(env, call.params[0]);
  const request = parseBody(creationRequestSchema, call.body, "NodeCreationRequest");
  const sets = request.sets.map((set, i) => toNodeSet(cluster, set, i, request.requestId));
  assertNewRequestId(env, request.requestId);
  return runCreation(env, call, cluster, sets, request.requestId);
}

/** Reads `totalCoreCount` or `totalNodeCount` (exactly one, a non-negative integer). */
function scaleTarget(query: URLSearchParams): { unit: "cores" | "nodes"; total: number } {
  const given = (["totalCoreCount", "totalNodeCount"] as const).filter((k) => query.has(k));
  if (given.length !== 1) {
    throw invalidInput(`invalid scale request: give exactly one of totalCoreCount and totalNodeCount, got ${given.length === 0 ? "neither" : "both"}`);
  }
  const raw = query.get(given[0])!;
  if (!/^\d+$/.test(raw)) throw invalidInput(`invalid query parameter "${given[0]}": got "${raw}", expected a non-negative integer`);
  return { unit: given[0] === "totalCoreCount" ? "cores" : "nodes", total: Number(raw) };
}

/**
 * POST /clusters/{cluster}/scale/{nodearray}: adds nodes (never removes any) so the nodearray
 * holds the total. Every node of the nodearray counts except those being terminated.
 */
export function scaleNodearray(env: CycleCloudEnv, call: RestCall): RestReply {
  const cluster = loadCluster(env, call.params[0]);
  const nodearray = findNodearray(cluster, call.params[1]);
  if (!nodearray) {
    throw invalidInput(`invalid nodearray: got "${call.params[1]}", allowed in cluster "${cluster.name}": ${cluster.nodearrays.map((n) => n.name).join(", ")}`);
  }
  const target = scaleTarget(call.query);
  const now = env.clock.now();
  const counted = env.store
    .listNodes(cluster.name)
    .filter((n) => n.nodearray === nodearray.name && !["Terminating", "Terminated"].includes(currentState(n, now)));
  const bucket = nodearray.buckets[0];
  const vcpus = machineTypeOf(bucket.machineType).vcpuCount;
  const existing = target.unit === "nodes" ? counted.length : counted.reduce((sum, n) => sum + machineTypeOf(n.machineType).vcpuCount, 0);
  const missing = Math.max(0, target.total - existing);
  const count = target.unit === "nodes" ? missing : Math.ceil(missing / vcpus);
  return runCreation(env, call, cluster, [{ nodearray, bucket, count }]);
}

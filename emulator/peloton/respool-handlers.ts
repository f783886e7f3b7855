import { randomUUID } from "node:crypto";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ResourcePoolIDSchema, RevisionSchema } from "../../proto/gen/peloton/api/v1alpha/peloton_pb";
import { type ResourcePoolInfoSchema, ResourcePoolSpecSchema } from "../../proto/gen/peloton/api/v1alpha/respool/respool_pb";
import type { ResourcePoolService } from "../../proto/gen/peloton/api/v1alpha/respool/svc/respool_svc_pb";
import type { PelotonEnv } from "./env";
import { invalidArgument, isUuid, respoolNotFound } from "./errors";
import type { ServiceHandlers } from "./handler-types";
import type { PoolLedger } from "./pool-ledger";
import { ROOT_POOL_ID, type RespoolRecord } from "./respool-store";
import { assertFitsParent, assertValidSpec, respoolExists } from "./respool-validation";
import { findPoolAtPath, poolPath } from "./respool-tree";
import { ledgerAt } from "./simulation";

type Handlers = ServiceHandlers<typeof ResourcePoolService>;

function poolInfo(env: PelotonEnv, pool: RespoolRecord, ledger: PoolLedger): MessageInitShape<typeof ResourcePoolInfoSchema> {
  const usage = ledger.usage(pool.id);
  const kinds = new Set([...pool.spec.resources.map((r) => r.kind), ...Object.keys(usage).filter((k) => usage[k] > 0)]);
  return {
    respoolId: { value: pool.id },
    spec: pool.spec,
    parent: pool.parentId ? { value: pool.parentId } : undefined,
    children: env.respools.children(pool.id).map((c) => ({ value: c.id })),
    usages: [...kinds].map((kind) => ({ kind, allocation: usage[kind] ?? 0, slack: 0 })),
    path: { value: poolPath(env, pool) },
  };
}

function mustFind(env: PelotonEnv, id: string): RespoolRecord {
  const pool = env.respools.find(id);
  if (!pool) throw respoolNotFound(JSON.stringify(id));
  return pool;
}

const createResourcePool: (env: PelotonEnv) => Handlers["createResourcePool"] = (env) => (request) => {
  const spec = request.spec;
  assertValidSpec(spec);
  const id = request.respoolId?.value || randomUUID();
  if (!isUuid(id)) throw invalidArgument(`respool_id ${JSON.stringify(id)} is not a valid UUID`);
  if (env.respools.find(id)) throw respoolExists(`"${id}"`);
  const parentId = spec.parent?.value || ROOT_POOL_ID;
  const parent = env.respools.find(parentId);
  if (!parent) throw invalidArgument(`parent resource pool ${JSON.stringify(parentId)} of "${spec.name}" not found`);
  const siblings = env.respools.children(parent.id);
  if (siblings.some((s) => s.name === spec.name)) throw respoolExists(`"${spec.name}" under "${poolPath(env, parent)}"`);
  if (parent.id !== ROOT_POOL_ID) assertFitsParent(spec, parent, siblings);
  if (env.jobs.countInPool(parent.id) > 0) {
    throw invalidArgument(`resource pool "${poolPath(env, parent)}" has jobs: only a pool without jobs can get children`);
  }
  const now = env.clock.now();
  const stored = create(ResourcePoolSpecSchema, {
    ...spec,
    parent: create(ResourcePoolIDSchema, { value: parent.id }),
    revision: create(RevisionSchema, { version: 1n, createdAt: BigInt(now), updatedAt: BigInt(now), updatedBy: "peloton" }),
  });
  env.respools.insert({ id, parentId: parent.id, name: spec.name, spec: stored, createdMs: now });
  return { respoolId: { value: id } };
};

const updateResourcePool: (env: PelotonEnv) => Handlers["updateResourcePool"] = (env) => (request) => {
  const pool = mustFind(env, request.respoolId?.value ?? "");
  if (pool.id === ROOT_POOL_ID) throw invalidArgument("the root resource pool cannot be updated");
  const spec = request.spec;
  assertValidSpec(spec);
  const parentId = spec.parent?.value || pool.parentId;
  if (parentId !== pool.parentId) {
    throw invalidArgument(`resource pool "${pool.name}" cannot move: parent is ${pool.parentId}, got ${parentId}`);
  }
  const parent = mustFind(env, parentId ?? ROOT_POOL_ID);
  const siblings = env.respools.children(parent.id).filter((s) => s.id !== pool.id);
  if (siblings.some((s) => s.name === spec.name)) throw respoolExists(`"${spec.name}" under "${poolPath(env, parent)}"`);
  if (parent.id !== ROOT_POOL_ID) assertFitsParent(spec, parent, siblings);
  const now = env.clock.now();
  const version = (pool.spec.revision?.version ?? 0n) + 1n;
  const createdAt = pool.spec.revision?.createdAt ?? BigInt(pool.createdMs);
  const stored = create(ResourcePoolSpecSchema, {
    ...spec,
    parent: create(ResourcePoolIDSchema, { value: parent.id }),
    revision: create(RevisionSchema, { version, createdAt, updatedAt: BigInt(now), updatedBy: "peloton" }),
  });
  env.respools.update(pool.id, spec.name, stored);
  return {};
};

const deleteResourcePool: (env: PelotonEnv) => Handlers["deleteResourcePool"] = (env) => (request) => {
  const pool = mustFind(env, request.respoolId?.value ?? "");
  if (pool.id === ROOT_POOL_ID) throw invalidArgument("the root resource pool cannot be deleted");
  if (env.respools.children(pool.id).length > 0) throw invalidArgument(`resource pool "${poolPath(env, pool)}" is not a leaf node`);
  const jobs = env.jobs.countInPool(pool.id);
  if (jobs > 0) throw new ConnectError(`resource pool "${poolPath(env, pool)}" is busy: ${jobs} job(s) use it`, Code.FailedPrecondition);
  env.respools.delete(pool.id);
  return {};
};

const lookupResourcePoolID: (env: PelotonEnv) => Handlers["lookupResourcePoolID"] = (env) => (request) => {
  const path = request.path?.value ?? "";
  const pool = findPoolAtPath(env, path);
  if (!pool) throw respoolNotFound(`at path ${JSON.stringify(path)}`);
  return { respoolId: { value: pool.id } };
};

/** ResourcePoolService: the pool tree under `root`, with limits that hold pods back. */
export function createRespoolHandlers(env: PelotonEnv): Handlers {
  return {
    createResourcePool: createResourcePool(env),
    updateResourcePool: updateResourcePool(env),
    deleteResourcePool: deleteResourcePool(env),
    lookupResourcePoolID: lookupResourcePoolID(env),
    getResourcePool(request) {
      const pool = mustFind(env, request.respoolId?.value ?? "");
      const ledger = ledgerAt(env, env.clock.now());
      const children = request.includeChildPools ? env.respools.children(pool.id) : [];
      return { respool: poolInfo(env, pool, ledger), childRespools: children.map((c) => poolInfo(env, c, ledger)) };
    },
    queryResourcePools() {
      const ledger = ledgerAt(env, env.clock.now());
      const infos = env.respools.list().map((p) => poolInfo(env, p, ledger));
      return { respools: infos.sort((a, b) => (a.path?.value ?? "").localeCompare(b.path?.value ?? "")) };
    },
  };
}

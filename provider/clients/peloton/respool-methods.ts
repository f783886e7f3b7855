import type { Client } from "@connectrpc/connect";
import type { ResourcePoolInfo } from "../../../proto/gen/peloton/api/v1alpha/respool/respool_pb";
import type { ResourcePoolService } from "../../../proto/gen/peloton/api/v1alpha/respool/svc/respool_svc_pb";
import { type Caller, type CallOptions, goneOnRetry, type Rpc } from "../shared/grpc-caller";
import type { ResourcePoolSpecInput } from "./types";
import { explainMissingRespoolService } from "./yarpc";

/** A pool with its direct children, as GetResourcePool answers. */
export interface ResourcePoolDetail {
  respool: ResourcePoolInfo;
  /** Set only when asked for with `includeChildPools`. */
  childRespools: ResourcePoolInfo[];
}

/** ResourcePoolService calls. Errors name the pool; a server without the v1alpha service gets a clear error. */
export interface RespoolMethods {
  /** CreateResourcePool; answers the pool id. Not retried: pass `respoolId` to make a retry safe. */
  createResourcePool(spec: ResourcePoolSpecInput, options?: CallOptions & { respoolId?: string }): Promise<string>;
  /** GetResourcePool. Throws NotFound when the pool is gone. */
  getResourcePool(respoolId: string, options?: CallOptions & { includeChildPools?: boolean }): Promise<ResourcePoolDetail>;
  /** UpdateResourcePool: replaces the pool's spec. */
  updateResourcePool(respoolId: string, spec: ResourcePoolSpecInput, options?: CallOptions): Promise<void>;
  /** DeleteResourcePool. NotFound on a retry counts as success. */
  deleteResourcePool(respoolId: string, options?: CallOptions): Promise<void>;
  /** LookupResourcePoolID: the id of the pool at an absolute path such as `/infrastructure/compute`. */
  lookupResourcePoolId(path: string, options?: CallOptions): Promise<string>;
  /** QueryResourcePools: every pool, the root included. */
  queryResourcePools(options?: CallOptions): Promise<ResourcePoolInfo[]>;
}

const q = (s: string) => JSON.stringify(s);

/** Builds the ResourcePoolService methods over a Connect client. */
export function respoolMethods(rpc: Client<typeof ResourcePoolService>, { once, retried }: Caller, endpoint: string): RespoolMethods {
  /** Wraps an RPC so that a missing service is explained before the caller translates errors. */
  const explained =
    <T>(operation: string, fn: Rpc<T>): Rpc<T> =>
    async (c, n) => {
      try {
        return await fn(c, n);
      } catch (err) {
        throw explainMissingRespoolService(err, operation, endpoint);
      }
    };
  const run = <T>(mode: typeof once, operation: string, options: CallOptions | undefined, fn: Rpc<T>) =>
    mode(operation, options, explained(operation, fn));
  return {
    createResourcePool: (spec, o) =>
      run(once, `CreateResourcePool pool ${q(spec.name ?? "")}`, o, async (c) => {
        const reply = await rpc.createResourcePool({ respoolId: o?.respoolId ? { value: o.respoolId } : undefined, spec }, c);
        return reply.respoolId?.value ?? "";
      }),
    getResourcePool: (respoolId, o) =>
      run(retried, `GetResourcePool pool ${q(respoolId)}`, o, async (c) => {
        const reply = await rpc.getResourcePool({ respoolId: { value: respoolId }, includeChildPools: o?.includeChildPools ?? false }, c);
        return { respool: reply.respool!, childRespools: reply.childRespools };
      }),
    updateResourcePool: (respoolId, spec, o) =>
      run(retried, `UpdateResourcePool pool ${q(respoolId)}`, o, async (c) => {
        await rpc.updateResourcePool({ respoolId: { value: respoolId }, spec }, c);
      }),
    deleteResourcePool: (respoolId, o) => {
      const operation = `DeleteResourcePool pool ${q(respoolId)}`;
      const del: Rpc<void> = async (c) => {
        await rpc.deleteResourcePool({ respoolId: { value: respoolId } }, c);
      };
      return retried(operation, o, goneOnRetry(explained(operation, del), undefined));
    },
    lookupResourcePoolId: (path, o) =>
      run(retried, `LookupResourcePoolID path ${q(path)}`, o, async (c) => {
        return (await rpc.lookupResourcePoolID({ path: { value: path } }, c)).respoolId?.value ?? "";
      }),
    queryResourcePools: (o) => run(retried, "QueryResourcePools", o, async (c) => (await rpc.queryResourcePools({}, c)).respools),
  };
}

import { create, type DescMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ResourceManager, ResourcePoolConfig, ResourcePoolInfoSchema } from "../../proto/gen/peloton/api/v0/respool/respool_pb";
import type {
  ResourcePoolInfo,
  ResourcePoolSpec,
  ResourcePoolSpecSchema,
  ResourcePoolInfoSchema as V1InfoSchema,
} from "../../proto/gen/peloton/api/v1alpha/respool/respool_pb";
import { ResourcePoolService } from "../../proto/gen/peloton/api/v1alpha/respool/svc/respool_svc_pb";
import type { CallContext } from "../calls";
import type { ServiceHandlers } from "./handler-types";
import { ROOT_POOL_ID } from "./respool-store";

type V1Handlers = ServiceHandlers<typeof ResourcePoolService>;
type SpecInit = MessageInitShape<typeof ResourcePoolSpecSchema>;
type V0Handlers = ServiceHandlers<typeof ResourceManager>;

/** A copy of an id message (either version's), or undefined when it is unset or empty. */
function idOf(id: { value?: string } | undefined): { value: string } | undefined {
  return id?.value ? { value: id.value } : undefined;
}

/** A v1alpha spec from a v0 config: the same fields under other names, and no slack limit. */
function specOf(config: ResourcePoolConfig | undefined): SpecInit | undefined {
  if (!config) return undefined;
  return {
    name: config.name,
    owningTeam: config.owningTeam,
    ldapGroups: config.ldapGroups,
    description: config.description,
    // The two versions' enums have the same numbers.
    resources: config.resources.map((r) => ({ kind: r.kind, reservation: r.reservation, limit: r.limit, share: r.share, type: Number(r.type) })),
    parent: idOf(config.parent),
    policy: Number(config.policy),
    controllerLimit: config.controllerLimit ? { maxPercent: config.controllerLimit.maxPercent } : undefined,
  };
}

/** The v0 config of a stored v1alpha spec; the revision becomes the change log. */
function configOf(spec: ResourcePoolSpec | SpecInit | undefined) {
  if (!spec) return undefined;
  const revision = spec.revision;
  return {
    changeLog: revision
      ? { version: BigInt(revision.version ?? 0), createdAt: BigInt(revision.createdAt ?? 0), updatedAt: BigInt(revision.updatedAt ?? 0), updatedBy: revision.updatedBy ?? "" }
      : undefined,
    name: spec.name ?? "",
    owningTeam: spec.owningTeam ?? "",
    ldapGroups: [...(spec.ldapGroups ?? [])],
    description: spec.description ?? "",
    resources: (spec.resources ?? []).map((r) => ({ kind: r.kind ?? "", reservation: r.reservation ?? 0, limit: r.limit ?? 0, share: r.share ?? 0, type: r.type ?? 0 })),
    parent: idOf(spec.parent),
    policy: Number(spec.policy ?? 0),
    controllerLimit: spec.controllerLimit ? { maxPercent: spec.controllerLimit.maxPercent ?? 0 } : undefined,
  };
}

type V1Info = ResourcePoolInfo | MessageInitShape<typeof V1InfoSchema>;

/** The v0 view of a pool: v1alpha's info under v0's field names. */
function infoOf(info: V1Info): MessageInitShape<typeof ResourcePoolInfoSchema> {
  return {
    id: idOf(info.respoolId),
    config: configOf(info.spec),
    parent: idOf(info.parent),
    children: (info.children ?? []).map((c) => ({ value: c.value ?? "" })),
    usage: (info.usages ?? []).map((u) => ({ kind: u.kind ?? "", allocation: u.allocation ?? 0, slack: u.slack ?? 0 })),
    path: info.path?.value ? { value: info.path.value } : undefined,
  };
}

/** The empty v0 reply of a call whose v1alpha reply carries nothing v0 reports. */
function done(_v1Reply: unknown): Record<string, never> {
  return {};
}

/**
 * Runs a v1alpha handler and turns the errors v0 reports in its response into that response's
 * `error` field: `errorFor` names the field per gRPC code; any other code stays a gRPC error, as
 * upstream's handler returns unexpected failures.
 */
function answering<T>(run: () => T, errorFor: Partial<Record<Code, (message: string) => object>>): T | { error: object } {
  try {
    return run();
  } catch (cause) {
    const error = ConnectError.from(cause);
    const field = errorFor[error.code];
    if (!field) throw error;
    return { error: field(error.rawMessage) };
  }
}

/**
 * Peloton's v0 `ResourceManager`, the respool service real resource managers serve and the CLI
 * uses: each method runs the v1alpha handler on the same pool tree, so a pool made through
 * either service is seen by the other, and reports failures in the response's `error` field.
 */
export function createRespoolV0Handlers(v1: V1Handlers): V0Handlers {
  /** Runs v1alpha's handler of `method` on a request message built from `init`, as the router would. */
  const call = <K extends keyof V1Handlers>(method: K, init: object, ctx: CallContext): ReturnType<V1Handlers[K]> => {
    const request = create(ResourcePoolService.method[method].input as DescMessage, init as never);
    return (v1[method] as (request: unknown, ctx: CallContext) => ReturnType<V1Handlers[K]>)(request, ctx);
  };
  return {
    createResourcePool(request, ctx) {
      return answering(() => ({ result: idOf(call("createResourcePool", { spec: specOf(request.config) }, ctx).respoolId) }), {
        [Code.AlreadyExists]: (message) => ({ alreadyExists: { message } }),
        [Code.InvalidArgument]: (message) => ({ invalidResourcePoolConfig: { message } }),
        [Code.NotFound]: (message) => ({ invalidResourcePoolConfig: { message } }),
      });
    },
    getResourcePool(request, ctx) {
      // Upstream answers the root pool when no id is given.
      const id = request.id?.value || ROOT_POOL_ID;
      return answering(
        () => {
          const reply = call("getResourcePool", { respoolId: { value: id }, includeChildPools: request.includeChildPools }, ctx);
          return { poolinfo: reply.respool && infoOf(reply.respool), childPools: (reply.childRespools ?? []).map(infoOf) };
        },
        { [Code.NotFound]: (message) => ({ notFound: { id: { value: id }, message } }) },
      );
    },
    updateResourcePool(request, ctx) {
      return answering(() => done(call("updateResourcePool", { respoolId: request.id, spec: specOf(request.config) }, ctx)), {
        [Code.NotFound]: (message) => ({ notFound: { id: request.id, message } }),
        [Code.InvalidArgument]: (message) => ({ invalidResourcePoolConfig: { id: request.id, message } }),
        [Code.AlreadyExists]: (message) => ({ invalidResourcePoolConfig: { id: request.id, message } }),
      });
    },
    deleteResourcePool(request, ctx) {
      // v0 deletes by path: look the pool up first, then delete it as v1alpha does.
      const path = request.path;
      if (path?.value === "/") return { error: { notDeleted: { id: { value: ROOT_POOL_ID }, message: "the root resource pool cannot be deleted" } } };
      return answering(
        () => {
          const id = idOf(call("lookupResourcePoolID", { path }, ctx).respoolId);
          return answering(() => done(call("deleteResourcePool", { respoolId: id }, ctx)), {
            [Code.NotFound]: (message) => ({ notFound: { path, message } }),
            [Code.FailedPrecondition]: (message) => ({ isBusy: { id, message } }),
            [Code.InvalidArgument]: (message) => ({ isNotLeaf: { id, message } }),
          });
        },
        {
          [Code.NotFound]: (message) => ({ notFound: { path, message } }),
          [Code.InvalidArgument]: (message) => ({ notFound: { path, message } }),
        },
      );
    },
    lookupResourcePoolID(request, ctx) {
      return answering(() => ({ id: idOf(call("lookupResourcePoolID", { path: request.path }, ctx).respoolId) }), {
        [Code.NotFound]: (message) => ({ notFound: { path: request.path, message } }),
        [Code.InvalidArgument]: (message) => ({ invalidPath: { path: request.path, message } }),
      });
    },
    query(_request, ctx) {
      return { resourcePools: (call("queryResourcePools", {}, ctx).respools ?? []).map(infoOf) };
    },
  };
}

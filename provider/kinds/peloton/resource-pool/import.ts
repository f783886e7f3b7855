import { ReservationType, type ResourcePoolSpec } from "../../../../proto/gen/peloton/api/v1alpha/respool/respool_pb";
import type { ImportDefinition, OperationContext } from "../../../core/contract";
import { readDeadline } from "../../fields";
import { orMissing, pelotonClient } from "../common";
import { outputsOf } from "./operations";
import { POOL_TIMEOUTS, ROOT } from "./schema";

type Props = Record<string, unknown>;

/** The pool's inputs from its spec, leaving out what equals Peloton's defaults (share 1, ELASTIC, empty texts and lists). */
function inputsOf(spec: ResourcePoolSpec | undefined, parent: string): Props {
  const resources = (spec?.resources ?? []).map((r) => ({
    kind: r.kind,
    reservation: r.reservation,
    limit: r.limit,
    ...(r.share === 1 ? {} : { share: r.share }),
    ...(r.type === ReservationType.STATIC ? { type: "STATIC" } : {}),
  }));
  const inputs: Props = {
    name: spec?.name,
    parent,
    resources: resources.length > 0 ? resources : undefined,
    controllerLimit: spec?.controllerLimit ? { maxPercent: spec.controllerLimit.maxPercent } : undefined,
    slackLimit: spec?.slackLimit ? { maxPercent: spec.slackLimit.maxPercent } : undefined,
    owningTeam: spec?.owningTeam || undefined,
    ldapGroups: spec?.ldapGroups.length ? [...spec.ldapGroups] : undefined,
    description: spec?.description || undefined,
  };
  return Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined));
}

/**
 * Import of `peloton:ResourcePool` by its pool id (a UUID, `peloton respool dump` lists them), the
 * id create records. Peloton reports the whole spec; the parent comes back as its id (`root` for
 * top-level pools), so a program that named it by path writes the id instead.
 */
export const resourcePoolImport: ImportDefinition = {
  platform: "peloton",
  idPattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  async read(ctx, id) {
    const found = await orMissing(async () => (await pelotonClient(ctx.config)).getResourcePool(id, { deadline: readDeadline({}, POOL_TIMEOUTS) }));
    if (!found) return undefined;
    const info = found.respool;
    const parent = info.parent?.value || ROOT;
    return {
      inputs: inputsOf(info.spec, parent),
      outputs: outputsOf(info),
      // The pool keeps its own id: check derives one only when the old inputs hold none.
      prior: { respoolId: id, parent },
    };
  },
};

/** The id of the pool at an absolute path (LookupResourcePoolID), for `getResourcePool` by path; undefined when no pool is there. */
export async function poolIdAtPath(ctx: OperationContext, args: Props): Promise<string | undefined> {
  const id = await orMissing(async () => (await pelotonClient(ctx.config)).lookupResourcePoolId(String(args.path), { deadline: readDeadline({}, POOL_TIMEOUTS) }));
  return id || undefined;
}

/** Every pool, the root included (one QueryResourcePools), for `getResourcePools`. */
export async function listResourcePools(ctx: OperationContext): Promise<Props[]> {
  const pools = await (await pelotonClient(ctx.config)).queryResourcePools({ deadline: readDeadline({}, POOL_TIMEOUTS) });
  return pools.map((info) => {
    const id = info.respoolId?.value ?? "";
    return { id, respoolId: id, ...inputsOf(info.spec, info.parent?.value || ROOT), ...outputsOf(info) };
  });
}

import type { PelotonClient } from "../../../clients/peloton/client";
import type { ResourcePoolSpecInput } from "../../../clients/peloton/types";
import { ReservationType, type ResourcePoolInfo, SchedulingPolicy } from "../../../../proto/gen/peloton/api/v1alpha/respool/respool_pb";
import type { Deadline } from "../../../core/deadline";
import { createOrAdopt } from "../../../core/create-or-adopt";
import { ClusterformError } from "../../../core/errors";
import type { CreateContext, ResourceOperations } from "../../../core/contract";
import { deadlineFor, readDeadline } from "../../fields";
import { isNotFound, orMissing, pelotonClient } from "../common";
import { POOL_TIMEOUTS, ROOT, type ResourcePoolInputs } from "./schema";
import { carryOut } from "../../../core/plan/operation";

type Props = Record<string, unknown>;
const q = JSON.stringify;

/** The id of the parent the inputs name: `root`, an id, or a path looked up with LookupResourcePoolID. */
async function parentId(client: PelotonClient, parent: string | undefined, deadline: Deadline): Promise<string> {
  const ref = parent ?? ROOT;
  return ref.startsWith("/") ? client.lookupResourcePoolId(ref, { deadline }) : ref;
}

/** The pool spec Peloton stores for these inputs. */
export function toPoolSpec(inputs: ResourcePoolInputs, parent: string): ResourcePoolSpecInput {
  return {
    name: inputs.name,
    parent: { value: parent },
    owningTeam: inputs.owningTeam ?? "",
    ldapGroups: inputs.ldapGroups ?? [],
    description: inputs.description ?? "",
    resources: (inputs.resources ?? []).map((r) => ({
      kind: r.kind,
      reservation: r.reservation,
      limit: r.limit,
      share: r.share ?? 1,
      type: r.type === "STATIC" ? ReservationType.STATIC : ReservationType.ELASTIC,
    })),
    policy: SchedulingPolicy.PRIORITY_FIFO,
    controllerLimit: inputs.controllerLimit ? { maxPercent: inputs.controllerLimit.maxPercent } : undefined,
    slackLimit: inputs.slackLimit ? { maxPercent: inputs.slackLimit.maxPercent } : undefined,
  };
}

/** The outputs create and read record of a pool. */
export function outputsOf(info: ResourcePoolInfo): Props {
  return {
    path: info.path?.value ?? "",
    parentId: info.parent?.value ?? "",
    usages: info.usages.map((u) => ({ kind: u.kind, allocation: u.allocation, slack: u.slack })),
  };
}

/**
 * Creates the pool under its deterministic id, or adopts it when an interrupted `up` already did
 * (after the core confirms it cannot be a pool a replacement is about to delete), setting its spec
 * to the inputs under the parent it has.
 */
async function createPool(ctx: CreateContext, inputs: ResourcePoolInputs, deadline: Deadline): Promise<void> {
  const client = await pelotonClient(ctx.config);
  const id = inputs.respoolId!;
  // The value is the pool's parent id.
  const { value: parent, taken } = await createOrAdopt(ctx, {
    operation: `CreateResourcePool pool ${q(inputs.name)} (id ${id})`,
    deadline,
    find: async () => {
      const found = await orMissing(() => client.getResourcePool(id, { deadline }));
      return found && (found.respool.parent?.value ?? ROOT);
    },
    send: async () => {
      const parent = await parentId(client, inputs.parent, deadline);
      await client.createResourcePool(toPoolSpec(inputs, parent), { respoolId: id, deadline });
      return parent;
    },
    identify: () => ({ identity: id, id }),
    target: "the pool",
  });
  if (taken === "adopted") await client.updateResourcePool(id, toPoolSpec(inputs, parent), { deadline });
}

/** The error of a delete refused because the pool still has children or jobs, naming them. */
async function busyPool(client: PelotonClient, id: string, cause: ClusterformError, deadline: Deadline): Promise<ClusterformError> {
  const detail = await orMissing(() => client.getResourcePool(id, { includeChildPools: true, deadline }));
  const path = detail?.respool.path?.value ?? id;
  const children = (detail?.childRespools ?? []).map((c) => c.path?.value ?? c.respoolId?.value ?? "?");
  const jobs = (await client.queryJobs({ respool: { value: path } }, { deadline }).catch(() => undefined))?.records ?? [];
  const names = jobs.map((j) => `${q(j.name)} (${j.jobId?.value ?? "?"})`);
  const parts = [
    children.length > 0 ? `child pool(s) ${children.map((c) => q(c)).join(", ")}` : "",
    names.length > 0 ? `job(s) ${names.join(", ")}` : "",
  ].filter(Boolean);
  return new ClusterformError({
    code: "FailedPrecondition",
    platformCode: cause.platformCode,
    operation: `DeleteResourcePool pool ${q(path)} (id ${id})`,
    platformMessage: `${cause.platformMessage}; the pool still holds ${parts.join(" and ") || "something"}: delete or move them first`,
    cause,
  });
}

/** Peloton resource pools: one UpdateResourcePool per change, delete only when empty. */
export const resourcePoolOperations: ResourceOperations<ResourcePoolInputs> = {
  async create(ctx, inputs) {
    const deadline = deadlineFor(inputs, "create", POOL_TIMEOUTS);
    await createPool(ctx, inputs, deadline);
    const id = inputs.respoolId!;
    const { respool } = await (await pelotonClient(ctx.config)).getResourcePool(id, { deadline });
    return { id, outs: outputsOf(respool) };
  },

  async read(ctx, id, props) {
    const found = await orMissing(async () => (await pelotonClient(ctx.config)).getResourcePool(id, { deadline: readDeadline(props, POOL_TIMEOUTS) }));
    return found ? outputsOf(found.respool) : undefined;
  },

  async update(ctx, id, olds, news, plan) {
    const client = await pelotonClient(ctx.config);
    const deadline = deadlineFor(news, "update", POOL_TIMEOUTS);
    await carryOut("peloton:ResourcePool", plan.operations, {
      // Peloton's update takes the whole configuration: the changed fields go with the rest.
      async UpdateResourcePool() {
        const parent = typeof olds.parentId === "string" && olds.parentId ? olds.parentId : await parentId(client, news.parent, deadline);
        await client.updateResourcePool(id, toPoolSpec(news, parent), { deadline });
      },
    });
    return outputsOf((await client.getResourcePool(id, { deadline })).respool);
  },

  async delete(ctx, id, props) {
    const client = await pelotonClient(ctx.config);
    const deadline = deadlineFor(props, "delete", POOL_TIMEOUTS);
    try {
      await client.deleteResourcePool(id, { deadline });
    } catch (err) {
      if (isNotFound(err)) return;
      const e = ClusterformError.from(err, `DeleteResourcePool pool ${q(id)}`);
      if (e.code === "InvalidArgument" || e.code === "FailedPrecondition") throw await busyPool(client, id, e, deadline);
      throw e;
    }
  },
};

import type { SenlinClient } from "../../../clients/senlin/client";
import type { Profile, TypedSpec } from "../../../clients/senlin/types";
import type { Deadline } from "../../../core/deadline";
import { carryOut } from "../../../core/plan/operation";
import { deadlineFor, readDeadline } from "../../fields";
import type { ResourceOperations } from "../../../core/contract";
import { createOrAdopt } from "../../../core/create-or-adopt";
import { deleteUnlessGone, leftoverAmong, orMissing, patchUnlessDone } from "../catalog-ops";
import { senlinClient } from "../client";
import { sameSpec } from "../typed-spec";
import { OWNER_KEY, PROFILE_CALLS, PROFILE_TIMEOUTS, type PROFILE_UPDATE_CALLS, type ProfileInputs } from "./schema";

type Props = Record<string, unknown>;
type Inputs = ProfileInputs & Props;

const q = JSON.stringify;

/** The outputs create and read record of a profile. */
export function profileOutputsOf(profile: Profile): Props {
  return { profileType: profile.type };
}

/** The user's metadata plus the owner marker that tells this resource's profiles from same-named ones. */
function metadataOf(inputs: Inputs): Record<string, unknown> {
  return { ...inputs.metadata, [OWNER_KEY]: inputs.owner };
}

/**
 * A profile an interrupted create of this resource left: its name, owner marker and spec, and used
 * by no cluster or node (a used one is recorded in a state: see leftoverAmong in catalog-ops.ts), or in use too when
 * the engine records states late (`adoptInUse`: core/engine.ts recordsStateAtEnd).
 */
async function findLeftover(client: SenlinClient, inputs: Inputs, deadline: Deadline, adoptInUse: boolean): Promise<Profile | undefined> {
  const named = await client.listProfiles({ filters: { name: inputs.name! } }, { deadline });
  const ours = named.filter((p) => p.metadata[OWNER_KEY] === inputs.owner && sameSpec(p.spec, inputs.spec));
  if (ours.length === 0) return undefined;
  const [clusters, nodes] = await Promise.all([client.listClusters(undefined, { deadline }), client.listNodes(undefined, { deadline })]);
  const used = new Set([...clusters.map((c) => c.profileId), ...nodes.map((n) => n.profileId)]);
  return leftoverAmong(ours, used, adoptInUse);
}

/** Senlin profiles: created once, renamed and re-labelled in place, deleted when no cluster uses them. */
export const profileOperations: ResourceOperations<ProfileInputs> = {
  async create(ctx, inputs) {
    const client = await senlinClient(ctx.config);
    const deadline = deadlineFor(inputs, "create", PROFILE_TIMEOUTS);
    const operation = `${PROFILE_CALLS.CreateProfile} profile ${q(inputs.name)}`;
    const { value: profile } = await createOrAdopt(ctx, {
      operation,
      deadline,
      find: () => findLeftover(client, inputs, deadline, ctx.adoptInUse),
      send: () => client.createProfile(inputs.name!, inputs.spec as TypedSpec, metadataOf(inputs), { deadline }),
      identify: (found) => ({ identity: inputs.owner, id: found.id }),
      adoption: "self",
      target: "the profile",
    });
    return { id: profile.id, outs: profileOutputsOf(profile) };
  },

  async read(ctx, id, props) {
    const client = await senlinClient(ctx.config);
    const profile = await orMissing(() => client.getProfile(id, { deadline: readDeadline(props, PROFILE_TIMEOUTS) }));
    return profile ? profileOutputsOf(profile) : undefined;
  },

  async update(ctx, id, _olds, news, plan) {
    const client = await senlinClient(ctx.config);
    const deadline = deadlineFor(news, "update", PROFILE_TIMEOUTS);
    let profile: Profile | undefined;
    await carryOut<typeof PROFILE_UPDATE_CALLS>("senlin:Profile", plan.operations, {
      async [PROFILE_CALLS.UpdateProfile](o) {
        const update = { ...("name" in o.args ? { name: String(o.args.name) } : {}), ...("metadata" in o.args ? { metadata: metadataOf({ ...news, metadata: o.args.metadata as Inputs["metadata"] }) } : {}) };
        profile = await patchUnlessDone(ctx, `${o.call} profile ${q(id)}`, deadline, () => client.updateProfile(id, update, { deadline }));
      },
    });
    return profileOutputsOf(profile ?? (await client.getProfile(id, { deadline })));
  },

  async delete(ctx, id, props) {
    const client = await senlinClient(ctx.config);
    const deadline = deadlineFor(props, "delete", PROFILE_TIMEOUTS);
    await deleteUnlessGone("profile", "a cluster or node uses it", () => client.deleteProfile(id, { deadline }));
  },
};

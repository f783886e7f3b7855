import { readDeadline } from "../../fields";
import type { Profile } from "../../../clients/senlin/types";
import type { ImportDefinition, OperationContext, Props } from "../../../core/contract";
import { orMissing, senlinFilters } from "../catalog-ops";
import { senlinClient } from "../client";
import { profileOutputsOf } from "./operations";
import { OWNER_KEY, PROFILE_TIMEOUTS } from "./schema";

/** UUIDs as Senlin prints them. */
export const SENLIN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Import of `senlin:Profile` by its Senlin id (a UUID), the id create records. Senlin reports every
 * input: the name, the spec as stored, and metadata (without Clusterform's owner marker).
 */
export const profileImport: ImportDefinition = {
  platform: "senlin",
  idPattern: SENLIN_ID,
  async read(ctx, id) {
    const client = await senlinClient(ctx.config);
    const profile = await orMissing(() => client.getProfile(id, { deadline: readDeadline({}, PROFILE_TIMEOUTS) }));
    if (!profile) return undefined;
    return { inputs: inputsOf(profile), outputs: profileOutputsOf(profile) };
  },
};

function inputsOf(profile: Profile): Props {
  const { [OWNER_KEY]: _owner, ...metadata } = profile.metadata;
  return { name: profile.name, spec: profile.spec, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
}

/** The project's profiles matching Senlin's `name` and `type` filters (one GET /v1/profiles), for `getProfiles`. */
export async function listProfiles(ctx: OperationContext, args: Props): Promise<Props[]> {
  const profiles = await (await senlinClient(ctx.config)).listProfiles({ filters: senlinFilters(args, ["name", "type"]) }, { deadline: readDeadline({}, PROFILE_TIMEOUTS) });
  return profiles.map((p) => ({ id: p.id, ...inputsOf(p), ...profileOutputsOf(p) }));
}

/** The installed profile types (one GET /v1/profile-types), for `getProfileTypes`. */
export async function profileTypes(ctx: OperationContext): Promise<Props> {
  return { types: await (await senlinClient(ctx.config)).listProfileTypes({ deadline: readDeadline({}, PROFILE_TIMEOUTS) }) };
}

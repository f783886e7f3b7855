import { readDeadline } from "../../fields";
import type { ImportDefinition } from "../../../core/contract";
import { orMissing } from "../catalog-ops";
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
    const { [OWNER_KEY]: _owner, ...metadata } = profile.metadata;
    const inputs = { name: profile.name, spec: profile.spec, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
    return { inputs, outputs: profileOutputsOf(profile) };
  },
};

import { isUnknown } from "../../../core/validation";
import { completeName } from "../../fields";
import { defineKind, type Kind } from "../../../core/definition/kind";
import { catalogPlanner } from "../catalog-plan";
import { profileLookups } from "./lookups";
import { profileIdentity } from "../typed-spec";
import { PROFILE_CALLS, type ProfileInputs, profileKind } from "./schema";

type Props = Record<string, unknown>;

/**
 * Fills a derived name from the resource name and a hash of the owner and the spec: an interrupted
 * create derives it again, and a new spec (a replacement) gets a new name. Senlin names start with
 * a letter: a resource name like `1st` gets a prefix.
 */
function complete(olds: Props, news: ProfileInputs & Props, kind: Kind): ProfileInputs & Props {
  const named = completeName(olds, news, kind);
  const { name } = named;
  if (!named.autoNamed || typeof name !== "string" || isUnknown(name) || /^[A-Za-z]/.test(name)) return named;
  return { ...named, name: `profile-${name}` };
}

/** `senlin:Profile`: its fields (schema.ts), identity, planner, operations and import. */
export const senlinProfile = defineKind(profileKind, {
  complete,
  // Names are not unique: a profile is this resource's when its metadata carries the owner marker; a
  // replacement has another spec, so old and new never share an identity.
  identity: (inputs) => (isUnknown(inputs.spec) ? undefined : profileIdentity(inputs.owner, inputs.spec)),
  planner: catalogPlanner("Profile", { create: PROFILE_CALLS.CreateProfile, update: PROFILE_CALLS.UpdateProfile, delete: PROFILE_CALLS.DeleteProfile }),
  operations: async () => (await import("./operations")).profileOperations,
  importer: async () => (await import("./import")).profileImport,
  lookups: profileLookups,
});

import { isUnknown } from "../../../core/validation";
import { completeName } from "../../fields";
import { defineResource } from "../../kit";
import { profileIdentity, profileOperations } from "./operations";
import { type ProfileInputs, profileKind } from "./schema";
import { catalogPlanner } from "../catalog-plan";

type Props = Record<string, unknown>;

/**
 * Fills a derived name from the resource name and a hash of the owner and the spec: an interrupted
 * create derives it again, and a new spec (a replacement) gets a new name. Senlin names start with
 * a letter: a resource name like `1st` gets a prefix.
 */
function complete(olds: Props, news: ProfileInputs & Props): ProfileInputs & Props {
  const named = completeName(olds, news, (inputs) => [inputs.spec]);
  const { name } = named;
  if (!named.autoNamed || typeof name !== "string" || isUnknown(name) || /^[A-Za-z]/.test(name)) return named;
  return { ...named, name: `profile-${name}` };
}

/** The handler of `senlin:Profile`. */
export const profileHandler = defineResource<ProfileInputs>({
  schema: profileKind.schema,
  policies: profileKind.policies,
  complete,
  replaceOrder: profileKind.replaceOrder,
  // Names are not unique: a profile is this resource's when its metadata carries the owner marker; a
  // replacement has another spec, so old and new never share an identity.
  identity: (inputs) => (isUnknown(inputs.spec) ? undefined : profileIdentity(inputs.owner, inputs.spec)),
  planner: catalogPlanner("Profile"),
  operations: profileOperations,
});

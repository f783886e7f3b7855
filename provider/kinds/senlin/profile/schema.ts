import { OWNER_LABEL_KEY } from "../../../core/naming";
import { AUTO_NAMED, defineFields, type InputsOf, OWNERSHIP } from "../../../core/definition/kind";
import { inPlace, optional, replace, required, v } from "../../../core/definition/values";
import { senlinName } from "../cluster/schema";
import { typedSpec, userMetadata } from "../typed-spec";

/** The metadata key that marks a profile as created by one Pulumi resource (Senlin names are not unique). */
export const OWNER_KEY = OWNER_LABEL_KEY;

const UPDATE = inPlace("UpdateProfile");

/** `senlin:Profile`: name and metadata change in place; a new spec is a new profile, created first. */
export const profileKind = defineFields({
  type: "senlin:Profile",
  description:
    "An OpenStack Senlin profile: the spec nodes are built from. Name and metadata change in place (one PATCH); a " +
    "changed spec is a new profile, created before the old one is deleted, so that a cluster given the profile's `id` " +
    "switches to it with Senlin's rolling update (its nodes replaced in batches as its policies say) before the old " +
    "profile goes. Replacements are create-first by default for this kind (Senlin refuses to delete a profile in use).",
  hidden: { ...OWNERSHIP, ...AUTO_NAMED },
  replaceOrder: "create-first",
  inputs: {
    name: optional(v.custom({ kind: "string" }, senlinName()), {
      computed: true,
      description:
        "The profile name: an ASCII letter, then letters, digits, `_`, `.` or `-` (at most 254). Senlin names need not be " +
        "unique: clusters should refer to the profile by its `id`.",
      default: "the resource name, `-` and a 7-character hash of the owner and the spec (a new spec gets a new name)",
      policy: UPDATE,
    }),
    spec: required(typedSpec("profile", '`{ type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } }`'), {
      description: "What nodes are built from. Senlin never changes a profile's spec: a new spec is a new profile, with a new derived " +
        "name, created before the old one is deleted.",
      policy: replace,
      note: "Senlin profiles are immutable apart from their name and metadata",
    }),
    metadata: optional(userMetadata(), {
      description: "Free-form metadata; the key `clusterform.dev/owner` is reserved.",
      default: "{}",
      policy: UPDATE,
    }),
  },
  outputs: {
    profileType: { type: { kind: "string" }, description: "`<type>-<version>`, e.g. `os.nova.server-1.0`." },
  },
  timeouts: { create: "5m", update: "5m", delete: "5m" },
  importId: {
    shape: "the Senlin profile id (a UUID, as `openstack cluster profile show` prints it)",
    example: "5b2a7c1e-9d3f-4e6a-8b0c-1d2e3f4a5b6c",
    unreported: [],
  },
});

/** Validated inputs of a Senlin profile. */
export type ProfileInputs = InputsOf<typeof profileKind.inputs, typeof profileKind.hidden>;

/** Default timeouts: a profile is one synchronous call. */
export const PROFILE_TIMEOUTS = profileKind.timeouts;

import type { Lookup } from "../../../core/definition/lookup";
import { filter, installedTypes, senlinList, senlinObject } from "../lookups";
import { profileKind } from "./schema";

const reads = () => import("./import");

/** `senlin:Profile`'s lookups: one profile by id, the project's profiles with Senlin's filters, and the installed profile types. */
export const profileLookups: readonly Lookup[] = [
  senlinObject(profileKind, "profile", "Reads a Senlin profile by id without managing it: its name, spec, metadata and type (GET /v1/profiles/{id})."),
  senlinList(profileKind, {
    name: "getProfiles",
    description: "Lists the project's Senlin profiles with Senlin's own filters (GET /v1/profiles?name=&type=), each with what `getProfile` reports.",
    args: {
      name: filter("Only profiles of this name (Senlin names need not be unique)."),
      type: filter("Only profiles of this type, `<type>-<version>` (e.g. `os.nova.server-1.0`)."),
    },
    items: "profiles",
    fields: ["name", "spec", "metadata", "profileType"],
    read: async () => (await reads()).listProfiles,
  }),
  installedTypes("profile", async () => (await reads()).profileTypes),
];

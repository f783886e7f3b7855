import { type ListLookupSpec, lookupList, lookupObject, type Lookup, type ReadLookup, resultField } from "../../core/definition/lookup";
import type { KindFields } from "../../core/definition/kind";
import { optional, required, v } from "../../core/definition/values";

// What the three Senlin kinds' lookups share: one object by its Senlin id, a list with Senlin's own
// filters, and (for profiles and policies) the types the server has installed.

const q = (s: unknown) => JSON.stringify(s);

/** A Senlin list filter: matched exactly by Senlin. */
export const filter = (description: string) => optional(v.string(), { description });

/** The lookup of one Senlin object by its id (the import id), as its import reads it. */
export function senlinObject(kind: KindFields, noun: string, description: string, omitted?: readonly string[]): Lookup {
  return lookupObject(kind, "senlin", {
    description,
    args: { id: required(v.uuid(), { description: `The ${noun}'s Senlin id (a UUID).`, example: "0a9b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d" }) },
    importId: (args) => String(args.id),
    key: (args) => `id ${q(args.id)}`,
    ...(omitted ? { omitted } : {}),
  });
}

/** A list of a Senlin kind's objects with Senlin's own filters. */
export function senlinList(kind: KindFields, spec: ListLookupSpec): Lookup {
  return lookupList(kind, "senlin", spec);
}

const TYPE_ITEM = v.object("InstalledType", "A type the Senlin server has installed.", {
  name: required(v.string(), { description: "The full name, e.g. `os.nova.server-1.0`." }),
  type: required(v.string(), { description: "What a spec's `type` says, e.g. `os.nova.server`." }),
  version: required(v.string(), { description: "What a spec's `version` says, e.g. `1.0`." }),
}).type;

/** The types of profiles or policies the Senlin server has installed (one GET), for a spec's `type` and `version`. */
export function installedTypes(noun: "profile" | "policy", read: ReadLookup["read"]): ReadLookup {
  const name = noun === "profile" ? "getProfileTypes" : "getPolicyTypes";
  return {
    form: "read",
    name,
    description: `The ${noun} types the Senlin server has installed (GET /v1/${noun}-types), each with the \`type\` and \`version\` a ${noun} spec names.`,
    platform: "senlin",
    args: {},
    result: { types: resultField({ kind: "list", of: TYPE_ITEM }, `The installed ${noun} types.`) },
    read,
  };
}

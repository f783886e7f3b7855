import "../../../provider/resources";
import { handlerFor } from "../../../provider/registry";
import { IMPORTABLE_TYPES, importerFor } from "../../../provider/resources/imports";
import { KINDS } from "../../../provider/resources/kinds";

/**
 * Loads every kind's definition, handler and import, as the first call naming each type would:
 * run while a startup snapshot is made, so no call of the started executable loads a module.
 * Loading creates no client and makes no call (the handlers connect on their first operation).
 */
export async function warmHandlers(): Promise<void> {
  for (const kind of KINDS) handlerFor(kind.type);
  await Promise.all(IMPORTABLE_TYPES.map((type) => importerFor(type)));
}

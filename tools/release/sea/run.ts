import * as v8 from "node:v8";

/** What the generated entry of a single executable hands to {@link runSea}. */
export interface SeaEntry {
  /** Modules the program requires by computed names, by the name it asks for (prelude.cjs looks them up). */
  dynamic: Record<string, () => unknown>;
  /** Loads the program's modules without starting it: run while a startup snapshot is made. */
  preload(): void;
  /** Starts the program: requires the engine's entry point, whose top level serves the plugin. */
  main(): void;
}

const MODULES_KEY = Symbol.for("clusterform.sea.modules");
/** Set by prelude.cjs: whether the script runs to make a startup snapshot. */
const BUILDING_KEY = Symbol.for("clusterform.sea.building");

/**
 * Starts a bundled engine. Built with a startup snapshot, the modules are loaded while the snapshot
 * is made and the entry point runs when the executable starts; built with a code cache (or none),
 * the entry point runs at once and loads its modules as it would from `dist/`.
 */
export function runSea(entry: SeaEntry): void {
  (globalThis as Record<symbol, unknown>)[MODULES_KEY] = entry.dynamic;
  if ((globalThis as Record<symbol, unknown>)[BUILDING_KEY] === true) {
    entry.preload();
    v8.startupSnapshot.setDeserializeMainFunction(() => entry.main());
  } else {
    entry.main();
  }
}

import type { DatabaseSync } from "node:sqlite";
import type { AuditLog } from "./audit";
import type { Clock } from "./clock";
import type { FaultRegistry } from "./faults";
import type { LocalKubernetes } from "./kubernetes/host";
import type { MountedPlatform } from "./platform";
import { loadState, parseSavedState, resetState, type SavedState, saveState } from "./state-file";

/** Saving, loading and resetting the whole plane while it runs. */
export interface World {
  /** Every platform's objects, operations in flight and the audit log, as one document. */
  save(): SavedState;
  /** Replaces everything with a saved plane (validated first: a bad document changes nothing). */
  load(doc: unknown): Promise<void>;
  /** Empties every platform and the audit log, clears the faults, then puts back what a fresh start has (defaults, the seed file's objects). */
  reset(): Promise<void>;
  /** Called with the reason after every load and reset (the console's live view listens). */
  onChange(listener: (why: "load" | "reset") => void): () => void;
}

/** What the world acts on. */
export interface WorldDeps {
  db: DatabaseSync;
  clock: Clock;
  audit: AuditLog;
  faults: FaultRegistry;
  mounted: readonly MountedPlatform[];
  kubernetes?: LocalKubernetes;
  /** Creates the seed file's objects again (after a reset). @default nothing */
  reseed?: () => Promise<void>;
}

/** Creates the save, load and reset of a running plane. One change runs at a time. */
export function createWorld(deps: WorldDeps): World {
  const listeners = new Set<(why: "load" | "reset") => void>();
  let queue: Promise<void> = Promise.resolve();
  const exclusive = (why: "load" | "reset", change: () => void): Promise<void> => {
    const run = async () => {
      if (deps.kubernetes) await deps.kubernetes.replaceWorld(change);
      else change();
      deps.audit.reload();
      for (const m of deps.mounted) m.reload?.(why);
      if (why === "reset") await deps.reseed?.();
      for (const listener of listeners) listener(why);
    };
    const next = queue.then(run);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    save: () => saveState(deps.db, deps.clock.now()),
    load: (doc) => {
      const state = parseSavedState(doc);
      return exclusive("load", () => loadState(deps.db, state));
    },
    reset: () =>
      exclusive("reset", () => {
        deps.faults.clear();
        resetState(deps.db);
      }),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

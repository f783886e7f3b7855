import type { DatabaseSync } from "node:sqlite";
import type { Clock } from "../clock";
import type { FaultRegistry } from "../faults";
import { JobStore } from "./job-store";
import { RespoolStore } from "./respool-store";
import { RunStore } from "./runs";
import { scaleTiming, type Timing } from "./timing";
import { WorkflowStore } from "./workflow-store";

/** The API name Peloton calls are audited and faults matched under. */
export const PELOTON_API = "peloton";

/** The fault action that makes the next pods of a job fail to start. */
export const FAIL_INSTANCE_ACTION = "fail-instance";

/** What every Peloton handler and the simulation share. */
export interface PelotonEnv {
  db: DatabaseSync;
  respools: RespoolStore;
  jobs: JobStore;
  runs: RunStore;
  workflows: WorkflowStore;
  clock: Clock;
  timing: Timing;
  faults: FaultRegistry;
}

/** Builds the environment over the shared database; creates the root pool. */
export function createPelotonEnv(db: DatabaseSync, clock: Clock, timeScale: number, faults: FaultRegistry): PelotonEnv {
  const env: PelotonEnv = {
    db,
    respools: new RespoolStore(db),
    jobs: new JobStore(db),
    runs: new RunStore(db),
    workflows: new WorkflowStore(db),
    clock,
    timing: scaleTiming(timeScale),
    faults,
  };
  env.respools.ensureRoot(clock.now());
  return env;
}

import type { DatabaseSync } from "node:sqlite";
import { WorkflowState, type WorkflowType } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";

/** How a workflow rolls: the fields of UpdateSpec/CreateSpec it obeys. */
export interface WorkflowPolicy {
  /** 0 means all instances at once. */
  batchSize: number;
  /** 0 retries a failing instance without limit. */
  maxInstanceRetries: number;
  /** 0 means failures never fail the workflow. */
  maxTolerableInstanceFailures: number;
  rollbackOnFailure: boolean;
  startPaused: boolean;
  inPlace: boolean;
}

/** A state change of a workflow, for WorkflowInfo.events. */
export interface WorkflowEventRecord {
  state: WorkflowState;
  atMs: number;
}

/** One update or restart of a job and its progress. */
export interface WorkflowRecord {
  id: number;
  jobId: string;
  type: WorkflowType;
  state: WorkflowState;
  prevState: WorkflowState;
  /** The RPC that started it; pods it creates are matched against faults under this operation. */
  operation: string;
  /** Configuration versions it moves the job from and to (0 = no instances before). */
  fromConfig: number;
  toConfig: number;
  /** The job's entity version after the workflow started, and before. */
  version: string;
  prevVersion: string;
  policy: WorkflowPolicy;
  restartBatchSize: number;
  restartRanges: Array<[number, number]>;
  opaqueData: string;
  /** What WorkflowInfo reports the workflow adds, removes and updates. */
  added: number[];
  removed: number[];
  updated: number[];
  /** Instances the current direction starts without replacing a pod (not unavailable meanwhile). */
  startOnly: number[];
  /** Instances the current direction only kills. */
  removeOnly: number[];
  /** Instances still to start, in order. */
  todo: number[];
  /** Instances being replaced or restarted now. */
  current: number[];
  done: number[];
  /** Instances that ran out of retries. */
  failed: number[];
  /** Failures per instance during this workflow. */
  retries: Record<string, number>;
  /** This workflow rolls back a failed update. */
  rollback: boolean;
  createdMs: number;
  updatedMs: number;
  events: WorkflowEventRecord[];
  /** State changes of each instance under this workflow, for GetWorkflowEvents. */
  instanceEvents: Record<string, WorkflowEventRecord[]>;
}

/** States in which a workflow still moves instances. */
export const ROLLING_STATES: ReadonlySet<WorkflowState> = new Set([
  WorkflowState.ROLLING_FORWARD,
  WorkflowState.ROLLING_BACKWARD,
]);

/** States in which a workflow is not over: rolling, paused or just created. */
export const ACTIVE_STATES: ReadonlySet<WorkflowState> = new Set([
  ...ROLLING_STATES,
  WorkflowState.PAUSED,
  WorkflowState.INITIALIZED,
]);

/** Whether the workflow has not ended yet. */
export function isActive(workflow: WorkflowRecord): boolean {
  return ACTIVE_STATES.has(workflow.state);
}

/** Moves a workflow to `state` at `t`, remembering the state it leaves and the event. */
export function transition(workflow: WorkflowRecord, state: WorkflowState, t: number): void {
  workflow.prevState = workflow.state;
  workflow.state = state;
  workflow.updatedMs = t;
  workflow.events.push({ state, atMs: t });
}

/** Records a state change of one instance under a workflow. */
export function instanceEvent(workflow: WorkflowRecord, instanceId: number, state: WorkflowState, t: number): void {
  workflow.instanceEvents[instanceId] = [...(workflow.instanceEvents[instanceId] ?? []), { state, atMs: t }];
}

/** SQL access to workflows; each is stored as one JSON document. */
export class WorkflowStore {
  constructor(private readonly db: DatabaseSync) {}

  /** Workflows of a job, newest first. */
  listForJob(jobId: string): WorkflowRecord[] {
    return this.db
      .prepare("SELECT id, body FROM peloton_workflows WHERE job_id = ? ORDER BY id DESC")
      .all(jobId)
      .map((r) => ({ ...(JSON.parse(String(r.body)) as WorkflowRecord), id: Number(r.id) }));
  }

  /** The newest workflow of a job, if any. */
  latest(jobId: string): WorkflowRecord | undefined {
    return this.listForJob(jobId)[0];
  }

  /** Every workflow that has not ended, oldest first. */
  listActive(): WorkflowRecord[] {
    return this.db
      .prepare("SELECT id, body FROM peloton_workflows ORDER BY id")
      .all()
      .map((r) => ({ ...(JSON.parse(String(r.body)) as WorkflowRecord), id: Number(r.id) }))
      .filter(isActive);
  }

  /** Stores a new workflow and returns it with its id. */
  insert(workflow: Omit<WorkflowRecord, "id">): WorkflowRecord {
    const result = this.db.prepare("INSERT INTO peloton_workflows (job_id, body) VALUES (?, ?)").run(workflow.jobId, "{}");
    const stored = { ...workflow, id: Number(result.lastInsertRowid) };
    this.save(stored);
    return stored;
  }

  /** Writes a workflow back. */
  save(workflow: WorkflowRecord): void {
    this.db.prepare("UPDATE peloton_workflows SET body = ? WHERE id = ?").run(JSON.stringify(workflow), workflow.id);
  }

  /** Removes every workflow of a job. */
  deleteForJob(jobId: string): void {
    this.db.prepare("DELETE FROM peloton_workflows WHERE job_id = ?").run(jobId);
  }
}

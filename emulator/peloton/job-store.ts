import type { DatabaseSync } from "node:sqlite";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { type JobSpec, JobSpecSchema } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";

/** The goal a job is driven to. */
export type DesiredState = "RUNNING" | "KILLED";

/** A secret's identity as GetJob returns it: the value is never returned. */
export interface SecretRef {
  id: string;
  path: string;
}

/** A stored job; its state is derived from its pods. */
export interface JobRecord {
  id: string;
  name: string;
  respoolId: string;
  configVersion: number;
  desiredStateVersion: number;
  workflowVersion: number;
  desiredState: DesiredState;
  createdMs: number;
  updatedMs: number;
  /** Counts every change of the job, for JobStatus.revision. */
  revision: number;
  secrets: SecretRef[];
}

type Row = Record<string, unknown>;

function toJob(row: Row): JobRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    respoolId: String(row.respool_id),
    configVersion: Number(row.config_version),
    desiredStateVersion: Number(row.desired_state_version),
    workflowVersion: Number(row.workflow_version),
    desiredState: row.desired_state === "KILLED" ? "KILLED" : "RUNNING",
    createdMs: Number(row.created_ms),
    updatedMs: Number(row.updated_ms),
    revision: Number(row.revision),
    secrets: JSON.parse(String(row.secrets)) as SecretRef[],
  };
}

/** Columns of the fields {@link JobStore.update} may change. */
const JOB_COLUMNS = {
  name: "name",
  configVersion: "config_version",
  desiredStateVersion: "desired_state_version",
  workflowVersion: "workflow_version",
  desiredState: "desired_state",
  updatedMs: "updated_ms",
  revision: "revision",
} as const;

/** Job fields that change after creation. */
export type MutableJobFields = Partial<Pick<JobRecord, keyof typeof JOB_COLUMNS>>;

/** SQL access to jobs and their configuration versions. */
export class JobStore {
  constructor(readonly db: DatabaseSync) {}

  /** The job with this id, if stored. */
  find(id: string): JobRecord | undefined {
    const row = this.db.prepare("SELECT * FROM peloton_jobs WHERE id = ?").get(id);
    return row ? toJob(row as Row) : undefined;
  }

  /** Every job, oldest first. */
  list(): JobRecord[] {
    return this.db
      .prepare("SELECT * FROM peloton_jobs ORDER BY created_ms, id")
      .all()
      .map((r) => toJob(r as Row));
  }

  /** Jobs whose resource pool is `respoolId`. */
  countInPool(respoolId: string): number {
    const row = this.db.prepare("SELECT COUNT(*) AS n FROM peloton_jobs WHERE respool_id = ?").get(respoolId);
    return Number((row as Row).n);
  }

  /** Stores a new job. */
  insert(job: JobRecord): void {
    this.db
      .prepare(
        `INSERT INTO peloton_jobs (id, name, respool_id, config_version, desired_state_version, workflow_version,
           desired_state, created_ms, updated_ms, revision, secrets) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        job.id,
        job.name,
        job.respoolId,
        job.configVersion,
        job.desiredStateVersion,
        job.workflowVersion,
        job.desiredState,
        job.createdMs,
        job.updatedMs,
        job.revision,
        JSON.stringify(job.secrets),
      );
  }

  /** Updates the given fields of a job. */
  update(id: string, fields: MutableJobFields): void {
    for (const [key, value] of Object.entries(fields)) {
      const column = JOB_COLUMNS[key as keyof typeof JOB_COLUMNS];
      this.db.prepare(`UPDATE peloton_jobs SET ${column} = ? WHERE id = ?`).run(value as string | number, id);
    }
  }

  /** Removes a job and its configurations. */
  delete(id: string): void {
    this.db.prepare("DELETE FROM peloton_job_configs WHERE job_id = ?").run(id);
    this.db.prepare("DELETE FROM peloton_jobs WHERE id = ?").run(id);
  }

  /** Stores configuration `version` of a job. */
  insertConfig(jobId: string, version: number, spec: JobSpec, createdMs: number): void {
    this.db
      .prepare("INSERT INTO peloton_job_configs (job_id, version, spec, created_ms) VALUES (?, ?, ?, ?)")
      .run(jobId, version, toBinary(JobSpecSchema, spec), createdMs);
  }

  /** Configuration `version` of a job, if stored. */
  findConfig(jobId: string, version: number): JobSpec | undefined {
    const row = this.db.prepare("SELECT spec FROM peloton_job_configs WHERE job_id = ? AND version = ?").get(jobId, version);
    return row ? fromBinary(JobSpecSchema, (row as Row).spec as Uint8Array) : undefined;
  }

  /** The time-ordered meta value `key` (e.g. the simulation's settled time), or `fallback`. */
  meta(key: string, fallback: number): number {
    const row = this.db.prepare("SELECT value FROM peloton_meta WHERE key = ?").get(key);
    return row ? Number((row as Row).value) : fallback;
  }

  /** Stores the meta value `key`. */
  setMeta(key: string, value: number): void {
    this.db.prepare("INSERT INTO peloton_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
  }
}

import type { AuditEntry, LocalPlane } from "../harness/local-plane";

/** Peloton calls that only read: left out of the mutating-call lists the tests compare. */
const READS = new Set([
  "GetJob",
  "GetResourcePool",
  "LookupResourcePoolID",
  "QueryJobs",
  "QueryResourcePools",
  "ListPods",
  "QueryPods",
  "ListJobs",
  "ListJobWorkflows",
  "GetWorkflowEvents",
  "GetReplaceJobDiff",
  "GetJobIDFromJobName",
]);

/** The mutating Peloton calls of audit entries, as `<operation> <target>`. */
export function pelotonMutations(entries: AuditEntry[]): string[] {
  return entries.filter((e) => e.api === "peloton" && !READS.has(e.operation)).map((e) => `${e.operation} ${e.target}`);
}

/** One job as `/_local/peloton/jobs` shows it. */
export interface PelotonJobView {
  id: string;
  name: string;
  respoolId: string;
  version: string;
  state: string;
  desiredState: string;
  pods: { instanceId: number; state: string; configVersion: number; podId: string; failureCount: number }[];
  workflow: { type: string; state: string; opaqueData: string; done: number[]; failed: number[] } | null;
}

/** One pod of `/_local/peloton/timeline`. */
export interface TimelineEntry {
  instanceId: number;
  podId: string;
  configVersion: number;
  createdMs: number;
  admittedMs: number | null;
  runningMs: number | null;
  endMs: number | null;
  outcome: string;
}

/** Every job the local control plane holds. */
export async function pelotonJobs(plane: LocalPlane): Promise<PelotonJobView[]> {
  return (await plane.admin<{ jobs: PelotonJobView[] }>("/_local/peloton/jobs")).jobs;
}

/** Every resource pool but the root. */
export async function pelotonPools(plane: LocalPlane): Promise<{ id: string; path: string; jobs: number; resources: unknown[] }[]> {
  const all = (await plane.admin<{ respools: { id: string; path: string; jobs: number; resources: unknown[] }[] }>("/_local/peloton/respools")).respools;
  return all.filter((p) => p.id !== "root");
}

/** The instance timeline of one job. */
export async function timeline(plane: LocalPlane, jobId: string): Promise<TimelineEntry[]> {
  return (await plane.admin<{ entries: TimelineEntry[] }>(`/_local/peloton/timeline?job=${jobId}`)).entries;
}

/** Makes the job's next `count` pods started by `operation` fail to start (fault action `fail-instance`). */
export async function failInstances(plane: LocalPlane, jobId: string, operation: string, count: number): Promise<void> {
  const response = await fetch(`${plane.url}/_local/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ api: "peloton", operation, target: jobId, action: "fail-instance", count }),
  });
  if (!response.ok) throw new Error(`adding the fail-instance fault: HTTP ${response.status}: ${await response.text()}`);
}

import { inTransaction } from "../database";
import type { PelotonEnv } from "./env";
import { latestRuns, startRun } from "./instance-ops";
import { PoolLedger } from "./pool-ledger";
import { eventTimes, failureMs, isHolding, type RunRecord } from "./runs";
import { admissionEarliestMs, launchMs } from "./timing";
import { WorkflowState } from "../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import { instanceEvent, isActive } from "./workflow-store";
import { stepWorkflow } from "./workflow-step";

/** The meta key of the time up to which every pod and workflow has been advanced. */
const SETTLED_KEY = "settled_ms";

/** Most state changes applied at one instant before the simulation gives up (a bug guard). */
const MAX_ROUNDS_PER_INSTANT = 10_000;

/**
 * Acts on a pod that failed to start: the instance is retried after the back-off, unless the
 * workflow working on it has retried it `max_instance_retries` times already.
 */
function handleFailure(env: PelotonEnv, run: RunRecord, t: number): void {
  env.runs.markFailureHandled(run.id);
  const job = env.jobs.find(run.jobId);
  if (!job || job.desiredState === "KILLED") return;
  const latest = latestRuns(env.runs.listForJob(job.id), Number.POSITIVE_INFINITY).get(run.instanceId);
  if (latest?.id !== run.id) return;
  const wf = env.workflows.latest(job.id);
  const inWorkflow = wf !== undefined && isActive(wf) && wf.current.includes(run.instanceId);
  if (wf && inWorkflow) {
    const failures = (wf.retries[run.instanceId] ?? 0) + 1;
    wf.retries[run.instanceId] = failures;
    const limit = wf.policy.maxInstanceRetries;
    if (limit > 0 && failures > limit) {
      wf.current = wf.current.filter((i) => i !== run.instanceId);
      wf.failed.push(run.instanceId);
      instanceEvent(wf, run.instanceId, WorkflowState.FAILED, t);
    }
    env.workflows.save(wf);
    if (limit > 0 && failures > limit) return;
  }
  const operation = wf?.operation ?? "CreateJob";
  startRun(env, {
    job,
    instanceId: run.instanceId,
    configVersion: run.configVersion,
    createdMs: t + env.timing.retryBackoffMs,
    operation,
    previous: run,
    failureCount: run.failureCount + 1,
  });
}

/** Resource use per pool at `t`, from the pods holding resources then. */
export function ledgerAt(env: PelotonEnv, t: number, live: readonly RunRecord[] = env.runs.listLive(t)): PoolLedger {
  const ledger = new PoolLedger(env.respools.list());
  const poolOf = new Map(env.jobs.list().map((j) => [j.id, j.respoolId]));
  for (const run of live) {
    const pool = poolOf.get(run.jobId);
    if (pool !== undefined && isHolding(run, t)) ledger.add(pool, run.demand);
  }
  return ledger;
}

/** Admits waiting pods, oldest first, while their pools have room. */
function admitPending(env: PelotonEnv, live: readonly RunRecord[], t: number): boolean {
  const ledger = ledgerAt(env, t, live);
  const poolOf = new Map(env.jobs.list().map((j) => [j.id, j.respoolId]));
  let changed = false;
  for (const run of live) {
    const pool = poolOf.get(run.jobId);
    if (pool === undefined || run.admittedMs !== null || run.killMs !== null) continue;
    if (admissionEarliestMs(env.timing, run.createdMs) > t || !ledger.fits(pool, run.demand)) continue;
    const failsAt = run.fails ? t + launchMs(env.timing) : null;
    env.runs.admit(run.id, t, failsAt);
    ledger.add(pool, run.demand);
    changed = true;
  }
  return changed;
}

/** One round at instant `t`: failures, admissions, workflows. Answers whether anything changed. */
function processRound(env: PelotonEnv, t: number): boolean {
  const live = env.runs.listLive(t);
  let changed = false;
  for (const run of live) {
    const failedAt = failureMs(run, env.timing);
    if (failedAt !== undefined && failedAt <= t && !run.failureHandled) {
      handleFailure(env, run, t);
      changed = true;
    }
  }
  if (changed) return true;
  if (admitPending(env, live, t)) return true;
  for (const wf of env.workflows.listActive()) changed = stepWorkflow(env, wf, t) || changed;
  return changed;
}

/** The earliest pod event after `t` and not after `now`, if any. */
function nextEventAfter(env: PelotonEnv, t: number, now: number): number | undefined {
  let next: number | undefined;
  for (const run of env.runs.listLive(t)) {
    for (const at of eventTimes(run, env.timing)) if (at > t && at <= now && (next === undefined || at < next)) next = at;
  }
  return next;
}

/**
 * Advances every pod and workflow to the clock's current time, event by event in time order, so
 * what a read sees depends only on the stored times and the clock: a restart continues exactly.
 */
export function settle(env: PelotonEnv): void {
  const now = env.clock.now();
  inTransaction(env.db, () => {
    let t = Math.min(env.jobs.meta(SETTLED_KEY, now), now);
    for (;;) {
      let rounds = 0;
      while (processRound(env, t)) {
        if (++rounds > MAX_ROUNDS_PER_INSTANT) throw new Error(`peloton simulation did not settle at ${t}`);
      }
      const next = nextEventAfter(env, t, now);
      if (next === undefined) break;
      t = next;
    }
    env.jobs.setMeta(SETTLED_KEY, now);
  });
}

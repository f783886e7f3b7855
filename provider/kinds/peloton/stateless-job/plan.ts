import type { KindPlanner, PlannedOperation } from "../../../core/plan/operation";
import { op } from "../../../core/plan/operation";

type Props = Record<string, unknown>;

/** The batch size a rollout or restart uses: the update policy's, else Peloton's default of 1. */
function batchSizeOf(news: Props): number {
  const policy = news.updatePolicy as { batchSize?: number } | undefined;
  return typeof policy?.batchSize === "number" ? policy.batchSize : 1;
}

/** `n instances in batches of b (k batches)`. */
function batches(count: unknown, batchSize: number): string {
  return typeof count === "number" ? `${count} instance(s) in batches of ${batchSize} (${Math.ceil(count / batchSize)} batch(es))` : `all instances in batches of ${batchSize}`;
}

/**
 * Peloton stateless jobs, in the order `update` runs them: StartJob when a stopped job is to run,
 * one ReplaceJob (a rolling update) for every configuration field, RestartJob for a new
 * `restartNonce` of a running job, StopJob when the job is to stop.
 */
export const statelessJobPlanner: KindPlanner = {
  update(olds, news, diff, id) {
    const changed = new Set(diff.updates.map((u) => u.field));
    const operations = new Set(diff.updates.map((u) => u.operation));
    const goal = news.desiredState ?? "RUNNING";
    const wasGoal = olds.desiredState ?? "RUNNING";
    const batchSize = batchSizeOf(news);
    const calls: PlannedOperation[] = [];
    if (goal === "RUNNING" && wasGoal === "KILLED") calls.push(op("StartJob", id, { instanceCount: news.instanceCount }, `starts ${news.instanceCount} instance(s)`));
    if (operations.has("ReplaceJob")) {
      const fields = diff.updates.filter((u) => u.operation === "ReplaceJob").map((u) => u.field);
      // Only a new pod configuration restarts instances; a new count alone adds or removes some.
      const running = goal === "RUNNING" && fields.some((f) => f !== "instanceCount");
      const summary = goal === "RUNNING" ? `rolling update of ${batches(news.instanceCount, batchSize)}: ${fields.join(", ")}` : `new configuration (${fields.join(", ")}), taken when the job starts again`;
      const fewer = typeof olds.instanceCount === "number" && typeof news.instanceCount === "number" && news.instanceCount < olds.instanceCount;
      calls.push(op("ReplaceJob", id, { fields, instanceCount: news.instanceCount, batchSize }, summary, [...(running ? (["restarts"] as const) : []), ...(fewer ? (["capacity-removed"] as const) : [])]));
    }
    if (changed.has("restartNonce") && news.restartNonce !== undefined && goal === "RUNNING") {
      calls.push(op("RestartJob", id, { batchSize }, `restarts ${batches(news.instanceCount, batchSize)}`, ["restarts"]));
    }
    if (goal === "KILLED" && wasGoal !== "KILLED") calls.push(op("StopJob", id, {}, `stops all ${news.instanceCount} instance(s)`, ["capacity-removed"]));
    return calls;
  },
  create: (news) => [op("CreateJob", undefined, { instanceCount: news.instanceCount, respoolId: news.respoolId }, `creates a job of ${news.instanceCount} instance(s)`)],
  delete(olds, id) {
    const stop = olds.desiredState === "KILLED" ? [] : [op("StopJob", id, {}, `stops all ${olds.instanceCount} instance(s)`, ["capacity-removed"])];
    return [...stop, op("DeleteJob", id, {}, "deletes the job", ["deletes"])];
  },
};

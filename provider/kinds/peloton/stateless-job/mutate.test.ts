import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PelotonClient } from "../../../clients/peloton/client";
import type { JobDetail } from "../../../clients/peloton/job-methods";
import type { JobRef } from "../../../clients/peloton/types";
import { Deadline } from "../../../core/deadline";
import { ClusterformError } from "../../../core/errors";
import { type JobMutation, mutateJob } from "./mutate";

// mutateJob against a fake job: its entity version, and whether the change is applied yet.

const job = (version: string, applied: boolean) => ({ jobInfo: { status: { version: { value: version } } }, applied }) as unknown as JobDetail & { applied: boolean };
const error = (code: "Unavailable" | "Conflict" | "InvalidArgument", platformMessage: string) =>
  new ClusterformError({ code, platformCode: code.toUpperCase(), operation: 'StopJob job "j"', platformMessage });

/** A job whose reads answer `reads` in turn (the last repeats), and a StopJob answering `answers` in turn. */
function fake(reads: JobDetail[], answers: (ClusterformError | undefined)[]) {
  const sent: string[] = [];
  const warnings: string[] = [];
  let r = 0;
  const client = { getJob: async () => reads[Math.min(r++, reads.length - 1)] } as unknown as PelotonClient;
  const m: JobMutation = {
    operation: 'StopJob job "j"',
    needed: (d) => !(d as JobDetail & { applied: boolean }).applied,
    send: async (ref: JobRef) => {
      const answer = answers[sent.length];
      sent.push(ref.version);
      if (answer) throw answer;
      return { jobId: ref.jobId, version: `${ref.version}+1` };
    },
  };
  const run = (first?: JobDetail) => mutateJob(client, "j", m, new Deadline(60_000), first, async (w) => void warnings.push(w));
  return { run, sent, warnings, reads: () => r };
}

/** Runs `p` while moving the fake timers past the policy's pauses. */
async function settle<T>(p: Promise<T>): Promise<T | unknown> {
  const outcome = p.then(
    (v) => v,
    (e: unknown) => e,
  );
  await vi.advanceTimersByTimeAsync(10_000);
  return outcome;
}

describe("mutateJob", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends nothing when the job already is what the call would make it", async () => {
    const f = fake([job("3", true)], []);
    expect(await f.run()).toMatchObject({ sent: false });
    expect(f.sent).toEqual([]);
  });

  it("reads the job after a lost answer and does not send again when the call landed", async () => {
    const f = fake([job("3", true)], [error("Unavailable", "connection reset")]);
    expect(await settle(f.run(job("2", false)))).toMatchObject({ sent: false, detail: { applied: true } });
    expect([f.sent, f.reads()]).toEqual([["2"], 1]);
  });

  it("sends again with the version it reads when the lost call did not land", async () => {
    const f = fake([job("2", false)], [error("Unavailable", "connection reset")]);
    expect(await settle(f.run(job("2", false)))).toMatchObject({ sent: true, ref: { version: "2+1" } });
    expect(f.sent).toEqual(["2", "2"]);
  });

  it("stops at once on a permanent error", async () => {
    const f = fake([job("2", false)], [error("InvalidArgument", "bad")]);
    await expect(f.run(job("2", false))).rejects.toThrow('StopJob job "j": INVALIDARGUMENT: bad');
    expect([f.sent, f.reads()]).toEqual([["2"], 0]);
  });

  it("sends once more with the new version after a stale one, warning; a second stale version fails naming both", async () => {
    const stale = error("Conflict", "unexpected entity version");
    const once = fake([job("5", false)], [stale]);
    expect(await once.run(job("4", false))).toMatchObject({ sent: true });
    expect([once.sent, once.warnings.length]).toEqual([["4", "5"], 1]);
    const twice = fake([job("5", false), job("6", false)], [stale, stale]);
    await expect(twice.run(job("4", false))).rejects.toThrow(/it was at version 5, now 6/);
    expect(twice.sent).toEqual(["4", "5"]);
  });
});

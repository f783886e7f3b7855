import { describe, expect, it } from "vitest";
import { CALL_POLICY, ALREADY_EXISTS } from "./call-policy";
import type { CreateContext, FoundObject } from "./contract";
import { Deadline } from "./deadline";
import { ClusterformError, type ErrorCode } from "./errors";
import { type CreateCall, createOrAdopt, sendUnlessDone } from "./create-or-adopt";
import { type FakeTime, fakeTime } from "./testing";

const OP = 'CreateCluster cluster "prod"';
const MAX_JITTER = () => 0.999_999;

const error = (code: ErrorCode, extra: Partial<ConstructorParameters<typeof ClusterformError>[0]> = {}) =>
  new ClusterformError({ code, platformCode: code.toUpperCase(), operation: OP, platformMessage: `${code} answer`, ...extra });
const LOST = () => error("Unavailable", { platformMessage: "connection reset" });
const REFUSED = () => error("Unavailable", { platformCode: "ECONNREFUSED", platformMessage: "connection refused", unreachable: true });

/** What one send does: make the object and answer, make it and lose the answer, or fail with an error. */
type Step = "ok" | "made-then-lost" | "made-by-someone-else" | ClusterformError;

/**
 * A platform holding at most one object, whose create follows `steps` (the last repeats), and a
 * context recording the adoption checks and the progress shown.
 */
function world(steps: Step[], options: { present?: string; unreachableTimeout?: string; time?: FakeTime } = {}) {
  const time = options.time ?? fakeTime();
  const seen = { sends: 0, looks: 0, confirmed: [] as [string, FoundObject][], adopting: [] as string[], progress: [] as string[] };
  let object = options.present;
  const ctx: CreateContext = {
    config: { get: (key) => (key === "clusterform:unreachableTimeout" ? options.unreachableTimeout : undefined) },
    report: {
      progress: async (m) => void seen.progress.push(m),
      warn: async () => {},
      note: async () => {},
    },
    confirmAdoption: (operation, found) => void seen.confirmed.push([operation, found]),
    adopting: (_, id) => void seen.adopting.push(id),
    adoptInUse: false,
  };
  const call: CreateCall<string> = {
    operation: OP,
    deadline: new Deadline(600_000, time.now),
    find: async () => {
      seen.looks++;
      return object;
    },
    send: async () => {
      const step = steps[Math.min(seen.sends++, steps.length - 1)];
      if (step === "ok" || step === "made-then-lost") {
        object = "ours";
        if (step === "ok") return object;
        throw LOST();
      }
      if (step === "made-by-someone-else") {
        object = "theirs";
        throw error("AlreadyExists");
      }
      throw step;
    },
    identify: (found) => ({ identity: "prod", id: found }),
    exists: ALREADY_EXISTS,
    target: "the cluster",
    sleep: time.sleep,
    random: MAX_JITTER,
  };
  return { ctx, call, seen, time };
}

describe("createOrAdopt", () => {
  it("looks once, sends once and takes what it made when nothing is there", async () => {
    const { ctx, call, seen, time } = world(["ok"]);
    expect(await createOrAdopt(ctx, call)).toEqual({ value: "ours", taken: "created" });
    expect([seen.looks, seen.sends, time.sleeps, seen.confirmed]).toEqual([1, 1, [], []]);
  });

  it("takes the object a send whose answer was lost made: landed, no adoption check, no second send", async () => {
    const { ctx, call, seen, time } = world(["made-then-lost", "ok"]);
    expect(await createOrAdopt(ctx, call)).toEqual({ value: "ours", taken: "landed" });
    expect([seen.sends, seen.looks, time.sleeps, seen.confirmed, seen.adopting]).toEqual([1, 2, [100], [], []]);
    expect(seen.progress).toEqual([`${OP}: a transient failure (connection reset); looking for the cluster before trying again`]);
  });

  it("adopts an object found before any send once the core confirms it", async () => {
    const { ctx, call, seen } = world(["ok"], { present: "left-behind" });
    expect(await createOrAdopt(ctx, call)).toEqual({ value: "left-behind", taken: "adopted" });
    expect([seen.sends, seen.confirmed]).toEqual([0, [[OP, { identity: "prod", id: "left-behind" }]]]);
  });

  it("tells the core it adopts (ctx.adopting) when the kind decides itself", async () => {
    const { ctx, call, seen } = world(["ok"], { present: "left-behind" });
    expect(await createOrAdopt(ctx, { ...call, adoption: "self" })).toMatchObject({ taken: "adopted" });
    expect([seen.adopting, seen.confirmed]).toEqual([["left-behind"], []]);
  });

  it("refuses a foreign object before sending anything or asking the core", async () => {
    const { ctx, call, seen } = world(["ok"], { present: "theirs" });
    const foreign = (found: string) => (found === "theirs" ? error("AlreadyExists", { platformMessage: "not this stack's" }) : undefined);
    await expect(createOrAdopt(ctx, { ...call, foreign })).rejects.toThrow(`${OP}: ALREADYEXISTS: not this stack's`);
    expect([seen.sends, seen.confirmed]).toEqual([0, []]);
  });

  it("stops at once on a permanent error: exactly one send, no sleep", async () => {
    const invalid = error("InvalidArgument", { platformMessage: "bad spec" });
    const { ctx, call, seen, time } = world([invalid]);
    await expect(createOrAdopt(ctx, call)).rejects.toBe(invalid);
    expect([seen.sends, seen.looks, time.sleeps, seen.progress]).toEqual([1, 1, [], []]);
  });

  it("takes an \"exists\" answer to the first send as someone else's object: looked up and put through the adoption check", async () => {
    const { ctx, call, seen } = world(["made-by-someone-else"]);
    expect(await createOrAdopt(ctx, call)).toEqual({ value: "theirs", taken: "adopted" });
    expect([seen.sends, seen.confirmed]).toEqual([1, [[OP, { identity: "prod", id: "theirs" }]]]);
    expect(seen.progress).toEqual([`${OP}: it exists already (AlreadyExists answer); looking for the cluster before trying again`]);
  });

  it("refuses that object too when it is foreign, never taking it as its own", async () => {
    const { ctx, call, seen } = world(["made-by-someone-else"]);
    const foreign = () => error("AlreadyExists", { platformMessage: "not this stack's" });
    await expect(createOrAdopt(ctx, { ...call, foreign })).rejects.toThrow(/not this stack's/);
    expect([seen.sends, seen.confirmed]).toEqual([1, []]);
  });

  it("keeps \"exists\" permanent for a create that names no such answer", async () => {
    const { ctx, call, seen } = world(["made-by-someone-else"]);
    await expect(createOrAdopt(ctx, { ...call, exists: undefined })).rejects.toMatchObject({ code: "AlreadyExists" });
    expect([seen.sends, seen.looks]).toEqual([1, 1]);
  });

  it("backs off 100, 200, 400, 800 ms, looking before every send again", async () => {
    const { ctx, call, seen, time } = world([LOST(), LOST(), error("ResourceExhausted"), LOST(), "ok"]);
    expect(await createOrAdopt(ctx, call)).toMatchObject({ taken: "created" });
    expect([seen.sends, seen.looks, time.sleeps]).toEqual([5, 5, [100, 200, 400, 800]]);
  });

  it("draws each pause from [half, whole) of the backoff step", async () => {
    const { ctx, call, time } = world([LOST(), LOST(), "ok"]);
    await createOrAdopt(ctx, { ...call, random: () => 0 });
    expect(time.sleeps).toEqual([50, 100]);
  });

  it("never sleeps past the deadline, looks once more after the last lost answer, then names the last failure", async () => {
    const { ctx, call, seen, time } = world([LOST()]);
    const error = await createOrAdopt(ctx, { ...call, deadline: new Deadline(1_000, time.now) }).catch((e: unknown) => e);
    expect(time.sleeps).toEqual([100, 200, 400]);
    expect([seen.sends, seen.looks]).toEqual([4, 5]);
    expect(error).toMatchObject({ code: "DeadlineExceeded", ownDeadline: true, cause: { code: "Unavailable" } });
    expect((error as Error).message).toBe(
      `${OP}: TIMEOUT: not done after 700ms (timeout 1s); still failing after 4 attempt(s): UNAVAILABLE: connection reset`,
    );
  });

  it("finds the object in that last look when the last lost answer hid a create that landed", async () => {
    const { ctx, call, time } = world([LOST(), LOST(), LOST(), "made-then-lost"]);
    expect(await createOrAdopt(ctx, { ...call, deadline: new Deadline(1_000, time.now) })).toEqual({ value: "ours", taken: "landed" });
    expect(time.sleeps).toEqual([100, 200, 400]);
  });

  it("gives up on a platform never reached after clusterform:unreachableTimeout, however long the deadline", async () => {
    const { ctx, call, seen, time } = world([REFUSED()], { unreachableTimeout: "2s" });
    await expect(createOrAdopt(ctx, call)).rejects.toMatchObject({ code: "Unavailable", platformCode: "UNREACHABLE" });
    expect(time.nowMs).toBeGreaterThanOrEqual(2_000);
    expect(time.nowMs).toBeLessThan(10_000);
    expect(seen.sends).toBe(time.sleeps.length + 1);
  });

  it("does not count a failure that never reached the platform as a landed create: a later find is adopted through the check", async () => {
    const { ctx, call, seen } = world([REFUSED(), "made-by-someone-else"]);
    expect(await createOrAdopt(ctx, call)).toEqual({ value: "theirs", taken: "adopted" });
    expect(seen.confirmed).toHaveLength(1);
  });

  it("sends at most the policy's attempts, then throws the last failure", async () => {
    const { ctx, call, seen } = world([LOST(), error("ResourceExhausted")]);
    await expect(createOrAdopt(ctx, { ...call, policy: { ...CALL_POLICY, attempts: 3 } })).rejects.toMatchObject({ code: "ResourceExhausted" });
    expect(seen.sends).toBe(3);
  });
});

describe("createOrAdopt on a platform with no call that finds the object", () => {
  const noFind = (steps: Step[], foreign?: CreateCall<string>["foreign"]) => {
    const w = world(steps);
    return { ...w, call: { ...w.call, find: undefined, existing: "pool", foreign } };
  };

  it("takes an \"exists\" answer after a lost answer as the create that landed", async () => {
    const { ctx, call, seen } = noFind(["made-then-lost", "made-by-someone-else"]);
    expect(await createOrAdopt(ctx, call)).toEqual({ value: "pool", taken: "landed" });
    expect([seen.sends, seen.looks, seen.confirmed]).toEqual([2, 0, []]);
    expect(seen.progress).toEqual([`${OP}: a transient failure (connection reset); trying again`]);
  });

  it("puts an \"exists\" answer to the first send through the adoption check, or refuses it as foreign", async () => {
    const adopted = noFind(["made-by-someone-else"]);
    expect(await createOrAdopt(adopted.ctx, adopted.call)).toEqual({ value: "pool", taken: "adopted" });
    expect(adopted.seen.confirmed).toEqual([[OP, { identity: "prod", id: "pool" }]]);
    const refused = noFind(["made-by-someone-else"], () => error("AlreadyExists", { platformMessage: "not this stack's" }));
    await expect(createOrAdopt(refused.ctx, refused.call)).rejects.toThrow(/not this stack's/);
    expect([refused.seen.sends, refused.seen.confirmed]).toEqual([1, []]);
  });
});

describe("sendUnlessDone", () => {
  it("looks only after a failure when not asked to look first, and sends again when the work is not done", async () => {
    const time = fakeTime();
    const looks: boolean[] = [];
    let sends = 0;
    const value = await sendUnlessDone({
      operation: "ScaleVCluster vcluster \"a/b\"",
      deadline: new Deadline(60_000, time.now),
      send: async () => {
        if (sends++ === 0) throw LOST();
        return "sent";
      },
      look: async (lost) => void looks.push(lost),
      sleep: time.sleep,
      random: MAX_JITTER,
    });
    expect([value, sends, looks, time.sleeps]).toEqual(["sent", 2, [true], [100]]);
  });

  it("retries a call's own \"try again later\" answer, worded as the call words it", async () => {
    const time = fakeTime();
    const progress: string[] = [];
    const busy = error("Conflict", { platformMessage: "The cluster 'c' is in status UPDATING." });
    let sends = 0;
    const value = await sendUnlessDone({
      operation: 'ResizeCluster cluster "c"',
      deadline: new Deadline(60_000, time.now),
      send: async () => {
        if (sends++ < 2) throw busy;
        return "action-1";
      },
      answers: { transient: [{ code: "Conflict", message: /in status/, means: "the cluster is busy" }] },
      progress: (m) => progress.push(m),
      sleep: time.sleep,
      random: MAX_JITTER,
    });
    expect([value, time.sleeps]).toEqual(["action-1", [100, 200]]);
    expect(progress[0]).toBe(`ResizeCluster cluster "c": the cluster is busy (The cluster 'c' is in status UPDATING.); trying again`);
  });

  it("names the last failure when a pause that fitted ends past the deadline", async () => {
    // A real sleep can end late on a busy machine: this one takes 900 ms where 100 were asked.
    const time = fakeTime();
    let sends = 0;
    const err = await sendUnlessDone({
      operation: 'ScaleVCluster vcluster "a/b"',
      deadline: new Deadline(500, time.now),
      send: async () => {
        sends++;
        throw REFUSED();
      },
      sleep: async (ms) => time.sleep(ms + 800),
      random: MAX_JITTER,
    }).catch((e: ClusterformError) => e);
    expect([sends, err.code, (err.cause as ClusterformError).platformCode]).toEqual([1, "DeadlineExceeded", "ECONNREFUSED"]);
    expect(err.message).toBe(
      'ScaleVCluster vcluster "a/b": TIMEOUT: not done after 900ms (timeout 500ms); still failing after 1 attempt(s): ECONNREFUSED: connection refused',
    );
  });
});

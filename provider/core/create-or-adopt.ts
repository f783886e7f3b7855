import { answerOf, type Answer, type CallAnswers, type CallPolicy, classify, type Outcome } from "./call-policy";
import { resolveUnreachableTimeoutMs } from "./config";
import type { CreateContext, FoundObject } from "./contract";
import type { Deadline } from "./deadline";
import { ClusterformError } from "./errors";
import { deadlinePassed, pauseAfter, realSleep, retryPlan, type Sleep } from "./retry";

/** Where a call that must not be sent twice blindly stands when it is sent. */
export interface SendState {
  /** 0 for the first send. */
  attempt: number;
  /** True once an earlier send of this call failed with its answer lost: it may have been carried out. */
  lost: boolean;
}

/** A call that is not idempotent, and how to tell that its work is done. See {@link sendUnlessDone}. */
export interface GuardedCall<T> {
  /** What is being done, for errors and progress, e.g. `CreateCluster cluster "prod"`. */
  operation: string;
  /** No attempt starts, and no pause ends, after this deadline. */
  deadline: Deadline;
  /** Sends the call once. */
  send(state: SendState): Promise<T>;
  /**
   * Looks whether the call's work is done already (an earlier send landed, or someone made the
   * object): answers the result then, undefined to send. Called before every send but the first,
   * and before the first too when `lookFirst`. Without it, a failure worth retrying is sent again
   * without a look. @default never looks
   */
  look?(lost: boolean): Promise<T | undefined>;
  /** @default false */
  lookFirst?: boolean;
  /** The call's own answers meaning "exists already" (looked for again) or "try again later". @default none */
  answers?: CallAnswers;
  /** What `look` looks for, in progress messages, e.g. `the cluster`. @default "the object" */
  target?: string;
  /** Shows progress between attempts. @default says nothing */
  progress?: (message: string) => unknown;
  /** How long a platform never reached is retried. @default 60000 */
  unreachableMs?: number;
  /** @default realSleep */
  sleep?: Sleep;
  /** Jitter in [0, 1). @default Math.random */
  random?: () => number;
  /** @default CALL_POLICY */
  policy?: CallPolicy;
}

/** How progress names a failure: the call's own wording for its answer, else the outcome's. */
const WORDING: Readonly<Record<Exclude<Outcome, "permanent">, string>> = {
  lost: "a transient failure",
  transient: "a transient failure",
  exists: "it exists already",
};

function retryMessage<T>(call: GuardedCall<T>, failure: ClusterformError, outcome: Exclude<Outcome, "permanent">): string {
  const means = answerOf(failure, call.answers ?? {})?.means ?? WORDING[outcome];
  const next = call.look ? `looking for ${call.target ?? "the object"} before trying again` : "trying again";
  return `${call.operation}: ${means} (${failure.platformMessage}); ${next}`;
}

/**
 * Sends a call that must not simply be sent again after a failure, until it is done. Each failure
 * is judged by the call policy: a permanent one is thrown at once; a lost answer, a transient
 * failure or an "exists" answer is followed by the policy's backoff (within the deadline, the
 * unreachable streak and the attempts) and a `look` before the call is sent again, since the work
 * may be done. When the deadline ends the retries after a lost answer, one last look decides.
 * @throws ClusterformError: the permanent failure, the UNREACHABLE error, or the error that ended
 *   the retries (DeadlineExceeded with the last failure as its cause).
 */
export async function sendUnlessDone<T>(call: GuardedCall<T>): Promise<T> {
  const { deadline, operation } = call;
  const sleep = call.sleep ?? realSleep;
  const plan = retryPlan({ deadline, operation, random: call.random, unreachableMs: call.unreachableMs, policy: call.policy });
  let lost = false;
  let failure: ClusterformError | undefined;
  for (let attempt = 0; ; attempt++) {
    if (call.look && (attempt > 0 || call.lookFirst)) {
      const done = await call.look(lost);
      if (done !== undefined) return done;
    }
    if (deadline.expired()) throw deadlinePassed(plan, attempt, failure);
    try {
      return await call.send({ attempt, lost });
    } catch (err) {
      failure = ClusterformError.from(err, operation);
    }
    const outcome = classify(failure, call.answers, plan.policy);
    if (outcome === "permanent" || (outcome === "exists" && !call.look)) throw failure;
    lost ||= outcome === "lost";
    const next = pauseAfter(failure, attempt, plan);
    if ("stop" in next) {
      const done = lost && call.look ? await call.look(true) : undefined;
      if (done !== undefined) return done;
      throw next.stop;
    }
    call.progress?.(retryMessage(call, failure, outcome));
    await sleep(next.delayMs);
  }
}

/** How {@link createOrAdopt} came by its object. */
export type Taken =
  /** The create sent now made it. */
  | "created"
  /** An earlier send of this create, whose answer was lost, made it. */
  | "landed"
  /** It was there before this create sent anything, and adopting it was confirmed. */
  | "adopted";

/** What one kind's create needs to say to {@link createOrAdopt}. */
export interface CreateCall<T> {
  /** The create, for errors, progress and adoption, e.g. `CreateCluster cluster "prod"`. */
  operation: string;
  deadline: Deadline;
  /**
   * Looks for the object this resource's create would make (by its derived name, its
   * deterministic id, its ownership marker); undefined when there is none. Omitted for a platform
   * with no call that finds it: an "exists" answer then stands for {@link CreateCall.existing}.
   * @default none
   */
  find?: () => Promise<T | undefined>;
  /** What an "exists" answer stands for when there is no `find`. @default none */
  existing?: T;
  /** Sends the create once; answers the object made. */
  send: () => Promise<T>;
  /** The identity and id of a found object, for the adoption check. */
  identify: (found: T) => FoundObject;
  /**
   * The refusal of a found object that is not this resource's (it lacks the ownership marker, or
   * has a name the user chose and the platform keeps no marker); undefined when it may be adopted.
   * @default every found object may be adopted
   */
  foreign?: (found: T) => ClusterformError | undefined;
  /**
   * Who decides that adopting is safe: the core (`ctx.confirmAdoption`), or the kind, whose `find`
   * answers only objects it may adopt (`ctx.adopting`). @default "confirm"
   */
  adoption?: "confirm" | "self";
  /** This platform's answers meaning the object exists already. @default none: such answers are permanent */
  exists?: readonly Answer[];
  /** What is looked for, in progress messages. @default "the object" */
  target?: string;
  /** @default realSleep */
  sleep?: Sleep;
  /** @default Math.random */
  random?: () => number;
  /** @default CALL_POLICY */
  policy?: CallPolicy;
}

/**
 * Creates this resource's object once, or takes the one that exists already. Before every send it
 * looks (`find`): an object found after an earlier send's answer was lost is the one that send made
 * ("landed", no adoption check); any other found object, including one found after an "exists"
 * answer (two resources may race for one name), is checked to be this resource's (`foreign`) and
 * confirmed with the core before it is taken ("adopted"). Failures follow the call policy (see
 * {@link sendUnlessDone}); progress goes to `ctx.report`.
 */
export async function createOrAdopt<T>(ctx: CreateContext, call: CreateCall<T>): Promise<{ value: T; taken: Taken }> {
  const { operation } = call;
  const take = (found: T, lost: boolean): { value: T; taken: Taken } => {
    if (lost) return { value: found, taken: "landed" };
    const refusal = call.foreign?.(found);
    if (refusal) throw refusal;
    const object = call.identify(found);
    if (call.adoption === "self") ctx.adopting(operation, object.id);
    else ctx.confirmAdoption(operation, object);
    return { value: found, taken: "adopted" };
  };
  const { find, existing } = call;
  const answers = { exists: call.exists ?? [] };
  const send = async ({ lost }: SendState): Promise<{ value: T; taken: Taken }> => {
    try {
      return { value: await call.send(), taken: "created" };
    } catch (err) {
      // Nothing to look with: the platform's "exists" is the only sign of the object.
      const failure = ClusterformError.from(err, operation);
      if (find || existing === undefined || classify(failure, answers) !== "exists") throw failure;
      return take(existing, lost);
    }
  };
  const look = async (lost: boolean) => {
    const found = await find!();
    return found === undefined ? undefined : take(found, lost);
  };
  return sendUnlessDone({
    operation,
    deadline: call.deadline,
    send,
    look: find ? look : undefined,
    lookFirst: true,
    answers,
    target: call.target,
    progress: ctx.report.progress,
    unreachableMs: resolveUnreachableTimeoutMs(ctx.config),
    sleep: call.sleep,
    random: call.random,
    policy: call.policy,
  });
}

import { ClusterformError, type ErrorCode } from "./errors";

/*
 * The one retry policy of every platform call, as data: how often and how far apart a call is
 * sent again, and what each failure means for sending it again. retry.ts (idempotent calls),
 * create-or-adopt.ts (calls that must not be sent twice blindly) and errors.ts (isTransient,
 * isLostAnswer) all read it; nothing else decides whether a failure is worth another attempt.
 */

/** What a failed call means for sending it again. */
export type Outcome =
  /**
   * The platform was reached and the call failed without an answer (a reset connection, a call
   * that timed out): it may have been carried out. Look before sending it again.
   */
  | "lost"
  /** The call was not carried out (never reached the platform, refused for now): send it again later. */
  | "transient"
  /** The platform answered that the object the call makes exists already. */
  | "exists"
  /** Sending the call again cannot help. */
  | "permanent";

/** The facts of a failure the policy reads. */
export type Failure = Pick<ClusterformError, "code" | "platformCode" | "platformMessage" | "ownDeadline" | "unreachable">;

/** The platform code of the error that ends retrying a platform never reached for too long. */
export const UNREACHABLE = "UNREACHABLE";

/**
 * A platform answer recognized by its normalized code and, when the code alone says too little,
 * the text of the platform's message.
 */
export interface Answer {
  code: ErrorCode;
  /** Matched against the platform's message. @default any message */
  message?: RegExp;
  /** How progress messages name the answer, e.g. `the cluster is busy`. @default the outcome's own wording */
  means?: string;
}

/**
 * An exception to the code table, checked before it: a failure with every listed fact gets
 * `outcome` whatever its code.
 */
export interface Exception {
  /** Why the exception exists. */
  why: string;
  when: { platformCode?: string; ownDeadline?: true; unreachable?: true };
  outcome: Exclude<Outcome, "exists">;
}

/** Exponential backoff between attempts: `initialMs * factor ** retry`, never above `maxMs`. */
export interface Backoff {
  initialMs: number;
  factor: number;
  maxMs: number;
}

/** When and how often a failed call is sent again. */
export interface CallPolicy {
  /** The most attempts of one call, the first included. @default undefined: as many as the deadline allows */
  attempts?: number;
  backoff: Backoff;
  /** Checked in order before {@link CallPolicy.codes}; the first that applies decides. */
  exceptions: readonly Exception[];
  /** What each normalized code means when no exception and no answer of the call applies. */
  codes: Readonly<Record<ErrorCode, Exclude<Outcome, "exists">>>;
}

/** What one call adds to the policy: its platform's answers that mean "exists" or "try again later". */
export interface CallAnswers {
  /** Answers meaning the object the call makes exists already. @default none */
  exists?: readonly Answer[];
  /** Answers meaning the call was refused for now, e.g. a busy cluster. @default none */
  transient?: readonly Answer[];
}

/** The policy of every platform call. */
export const CALL_POLICY: CallPolicy = {
  attempts: undefined,
  // 100 ms, doubling, never more than 5 s between attempts.
  backoff: { initialMs: 100, factor: 2, maxMs: 5_000 },
  exceptions: [
    { why: "a failed TLS handshake is configuration, not a passing fault", when: { platformCode: "TLS_FAILURE" }, outcome: "permanent" },
    { why: "the unreachable streak already retried this platform until its limit", when: { platformCode: UNREACHABLE }, outcome: "permanent" },
    { why: "the provider's own operation deadline ran out", when: { ownDeadline: true }, outcome: "permanent" },
    // Nothing can have been done, so nothing was lost; the unreachable streak bounds these retries.
    { why: "a platform never reached did nothing", when: { unreachable: true }, outcome: "transient" },
  ],
  codes: {
    Unavailable: "lost",
    // A single call that timed out (the provider's own deadline is an exception above).
    DeadlineExceeded: "lost",
    // A refusal for lack of resources is an answer: the call was not carried out.
    ResourceExhausted: "transient",
    NotFound: "permanent",
    AlreadyExists: "permanent",
    InvalidArgument: "permanent",
    FailedPrecondition: "permanent",
    Conflict: "permanent",
    Unauthenticated: "permanent",
    PermissionDenied: "permanent",
    Internal: "permanent",
    Unknown: "permanent",
    Canceled: "permanent",
  },
};

/** The answer of most platforms when a create meets an object of its name or id. */
export const ALREADY_EXISTS: readonly Answer[] = [{ code: "AlreadyExists" }];

/** True when `failure` is the platform answer `answer`. */
export function isAnswer(failure: Failure, answer: Answer): boolean {
  return failure.code === answer.code && (answer.message === undefined || answer.message.test(failure.platformMessage));
}

function applies(failure: Failure, exception: Exception): boolean {
  const { platformCode, ownDeadline, unreachable } = exception.when;
  return (
    (platformCode === undefined || failure.platformCode === platformCode) &&
    (ownDeadline === undefined || failure.ownDeadline) &&
    (unreachable === undefined || failure.unreachable)
  );
}

/**
 * What `failure` means for sending its call again: the policy's exceptions first, then the call's
 * own answers, then the code table.
 * @param answers - the call's answers. @default none
 * @param policy - @default {@link CALL_POLICY}
 */
export function classify(failure: Failure, answers: CallAnswers = {}, policy: CallPolicy = CALL_POLICY): Outcome {
  const exception = policy.exceptions.find((e) => applies(failure, e));
  if (exception) return exception.outcome;
  if (answers.exists?.some((a) => isAnswer(failure, a))) return "exists";
  if (answers.transient?.some((a) => isAnswer(failure, a))) return "transient";
  return policy.codes[failure.code];
}

/** The call's own answer `failure` is, if any: its wording goes into progress messages. */
export function answerOf(failure: Failure, answers: CallAnswers): Answer | undefined {
  return [...(answers.exists ?? []), ...(answers.transient ?? [])].find((a) => isAnswer(failure, a));
}

/** True when retrying the same call later may succeed: the call policy (call-policy.ts) calls the failure lost or transient. */
export function isTransient(err: unknown): boolean {
  const outcome = classify(ClusterformError.from(err, ""));
  return outcome === "lost" || outcome === "transient";
}

/**
 * True when a failed call may have been carried out with its answer lost: the platform was
 * reached, then the call failed UNAVAILABLE (a reset connection, an overloaded server) or ran past
 * its call timeout. Such a call is worth sending again once the caller has checked whether it
 * landed. A platform never reached did nothing, and a refusal such as RESOURCE_EXHAUSTED is an answer.
 */
export function isLostAnswer(err: unknown): boolean {
  return classify(ClusterformError.from(err, "")) === "lost";
}

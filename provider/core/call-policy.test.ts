import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { ALREADY_EXISTS, type Answer, CALL_POLICY, type CallAnswers, classify, type Outcome, isLostAnswer, isTransient, UNREACHABLE } from "./call-policy";
import { ClusterformError, type ErrorCode } from "./errors";

const failure = (code: ErrorCode, extra: Partial<ConstructorParameters<typeof ClusterformError>[0]> = {}) =>
  new ClusterformError({ code, platformCode: code.toUpperCase(), operation: "CreateCluster cluster \"prod\"", platformMessage: "m", ...extra });

function networkError(code: string, message: string): Error {
  return new TypeError("fetch failed", { cause: Object.assign(new Error(message), { code }) });
}

// The policy as the table it is: every way a call can fail, and what it means for sending it again.
const TABLE: [string, unknown, Outcome][] = [
  ["UNAVAILABLE from a platform that was reached", new ConnectError("x", Code.Unavailable), "lost"],
  ["a connection reset mid-call", networkError("ECONNRESET", "reset"), "lost"],
  ["a single call that timed out", Object.assign(new Error("timed out"), { name: "TimeoutError" }), "lost"],
  ["a platform's DEADLINE_EXCEEDED", new ConnectError("x", Code.DeadlineExceeded), "lost"],
  ["a refused connection (never reached)", networkError("ECONNREFUSED", "refused"), "transient"],
  ["an unknown host (never reached)", networkError("ENOTFOUND", "no such host"), "transient"],
  ["RESOURCE_EXHAUSTED (an answer: not carried out)", new ConnectError("x", Code.ResourceExhausted), "transient"],
  ["HTTP 429", ClusterformError.fromHttp(429, "slow down", "o"), "transient"],
  ["HTTP 503", ClusterformError.fromHttp(503, "down", "o"), "lost"],
  ["a failed TLS handshake", networkError("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"), "permanent"],
  ["the end of the unreachable streak", failure("Unavailable", { platformCode: UNREACHABLE, unreachable: true }), "permanent"],
  ["the provider's own deadline", failure("DeadlineExceeded", { platformCode: "TIMEOUT", ownDeadline: true }), "permanent"],
  ["ALREADY_EXISTS when the call names no exists answer", new ConnectError("x", Code.AlreadyExists), "permanent"],
  ["NOT_FOUND", new ConnectError("x", Code.NotFound), "permanent"],
  ["INVALID_ARGUMENT", new ConnectError("x", Code.InvalidArgument), "permanent"],
  ["FAILED_PRECONDITION", new ConnectError("x", Code.FailedPrecondition), "permanent"],
  ["ABORTED (a conflict)", new ConnectError("x", Code.Aborted), "permanent"],
  ["UNAUTHENTICATED", new ConnectError("x", Code.Unauthenticated), "permanent"],
  ["PERMISSION_DENIED", new ConnectError("x", Code.PermissionDenied), "permanent"],
  ["INTERNAL", new ConnectError("x", Code.Internal), "permanent"],
  ["a cancel of our own", new ConnectError("x", Code.Canceled), "permanent"],
  ["an unknown error", new Error("x"), "permanent"],
];

describe("CALL_POLICY", () => {
  it.each(TABLE)("%s is %s", (_, err, outcome) => {
    expect(classify(ClusterformError.from(err, "o"))).toBe(outcome);
  });

  it.each(TABLE)("isTransient and isLostAnswer read the same table: %s", (_, err, outcome) => {
    expect([isTransient(err), isLostAnswer(err)]).toEqual([outcome === "lost" || outcome === "transient", outcome === "lost"]);
  });

  it("backs off from 100 ms, doubling, to at most 5 s, for as long as the deadline allows", () => {
    expect([CALL_POLICY.backoff, CALL_POLICY.attempts]).toEqual([{ initialMs: 100, factor: 2, maxMs: 5_000 }, undefined]);
  });
});

const CMASSH_EXISTS: Answer[] = [...ALREADY_EXISTS, { code: "Internal", message: /already exists/i }];
const BUSY: Answer = { code: "Conflict", message: /in status|cooldown/i, means: "the cluster is busy" };

describe("a call's own answers", () => {
  it.each<[string, ClusterformError, CallAnswers, Outcome]>([
    ["ALREADY_EXISTS, for a create that names it", failure("AlreadyExists"), { exists: ALREADY_EXISTS }, "exists"],
    ["cma-ssh's INTERNAL \"already exists\"", failure("Internal", { platformMessage: "cluster prod already exists" }), { exists: CMASSH_EXISTS }, "exists"],
    ["cma-ssh's other INTERNAL errors", failure("Internal", { platformMessage: "database is locked" }), { exists: CMASSH_EXISTS }, "permanent"],
    ["a busy cluster's 409", failure("Conflict", { platformMessage: "The cluster 'c' is in status UPDATING." }), { transient: [BUSY] }, "transient"],
    ["another 409", failure("Conflict", { platformMessage: "policies are attached" }), { transient: [BUSY] }, "permanent"],
    [
      "the provider's own deadline, even when the call names DeadlineExceeded (exceptions come first)",
      failure("DeadlineExceeded", { ownDeadline: true }),
      { exists: [{ code: "DeadlineExceeded" }] },
      "permanent",
    ],
  ])("%s", (_, err, answers, outcome) => {
    expect(classify(err, answers)).toBe(outcome);
  });
});

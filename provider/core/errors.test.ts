import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { isLostAnswer, isTransient } from "./call-policy";
import { ClusterformError, type ErrorCode, redact, withAddress } from "./errors";

const OP = 'ScaleNodePool pool "gpu" of cluster "prod"';

function networkError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("ClusterformError.from", () => {
  it.each<[Code, ErrorCode, string]>([
    [Code.NotFound, "NotFound", "NOT_FOUND"],
    [Code.AlreadyExists, "AlreadyExists", "ALREADY_EXISTS"],
    [Code.InvalidArgument, "InvalidArgument", "INVALID_ARGUMENT"],
    [Code.FailedPrecondition, "FailedPrecondition", "FAILED_PRECONDITION"],
    [Code.Aborted, "Conflict", "ABORTED"],
    [Code.Unavailable, "Unavailable", "UNAVAILABLE"],
    [Code.DeadlineExceeded, "DeadlineExceeded", "DEADLINE_EXCEEDED"],
    [Code.Unauthenticated, "Unauthenticated", "UNAUTHENTICATED"],
    [Code.PermissionDenied, "PermissionDenied", "PERMISSION_DENIED"],
    [Code.ResourceExhausted, "ResourceExhausted", "RESOURCE_EXHAUSTED"],
    [Code.Internal, "Internal", "INTERNAL"],
    [Code.Unknown, "Unknown", "UNKNOWN"],
    [Code.Canceled, "Canceled", "CANCELED"],
    [Code.OutOfRange, "InvalidArgument", "OUT_OF_RANGE"],
    [Code.Unimplemented, "Internal", "UNIMPLEMENTED"],
  ])("translates Connect code %s to %s", (connectCode, code, platformCode) => {
    const cause = new ConnectError("pool gpu not found", connectCode);
    const err = ClusterformError.from(cause, OP);
    expect(err).toBeInstanceOf(ClusterformError);
    expect([err.code, err.platformCode, err.operation, err.cause]).toEqual([code, platformCode, OP, cause]);
    expect(err.message).toBe(`${OP}: ${platformCode}: pool gpu not found`);
  });

  it.each([
    ["ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:9020"],
    ["ECONNRESET", "read ECONNRESET"],
    ["EPIPE", "write EPIPE"],
    ["ETIMEDOUT", "connect ETIMEDOUT 10.0.0.1:443"],
    ["UND_ERR_SOCKET", "other side closed"],
  ])("treats the Node network error %s as Unavailable", (sysCode, message) => {
    const err = ClusterformError.from(networkError(sysCode, message), OP);
    expect([err.code, err.message]).toEqual(["Unavailable", `${OP}: ${sysCode}: ${message}`]);
  });

  it.each<[string, unknown, string, boolean]>([
    ["a refused connection", networkError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:9020"), "ECONNREFUSED", true],
    ["an unknown host", networkError("ENOTFOUND", "getaddrinfo ENOTFOUND nowhere.invalid"), "ENOTFOUND", true],
    ["no route to the host", networkError("EHOSTUNREACH", "connect EHOSTUNREACH 10.9.9.9:443"), "EHOSTUNREACH", true],
    ["a reset after the platform answered", networkError("ECONNRESET", "read ECONNRESET"), "ECONNRESET", false],
    [
      "fetch's wrapper around a connection the server closed (a restart)",
      new TypeError("fetch failed", { cause: networkError("UND_ERR_SOCKET", "other side closed") }),
      "UND_ERR_SOCKET",
      false,
    ],
    [
      "fetch's wrapper around a refused connection",
      new TypeError("fetch failed", { cause: networkError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5000") }),
      "ECONNREFUSED",
      true,
    ],
    [
      "Connect's wrapper around an unknown host",
      new ConnectError("getaddrinfo ENOTFOUND nowhere.invalid", Code.Unavailable, undefined, undefined, networkError("ENOTFOUND", "getaddrinfo ENOTFOUND nowhere.invalid")),
      "ENOTFOUND",
      true,
    ],
  ])("tells whether the platform was reached: %s", (_, cause, platformCode, unreachable) => {
    const err = ClusterformError.from(cause, OP);
    expect([err.code, err.platformCode, err.unreachable, isTransient(err)]).toEqual(["Unavailable", platformCode, unreachable, true]);
  });

  it("retries a stream the server reset while going away (CANCELED from HTTP/2 CANCEL), but not a cancel of our own", () => {
    const cut = ClusterformError.from(new ConnectError("http/2 stream closed with error code CANCEL (0x8)", Code.Canceled), OP);
    expect([cut.code, cut.platformCode, cut.unreachable, isTransient(cut)]).toEqual(["Unavailable", "UNAVAILABLE", false, true]);
    const ours = ClusterformError.from(new ConnectError("This operation was aborted", Code.Canceled), OP);
    expect([ours.code, isTransient(ours)]).toEqual(["Canceled", false]);
  });

  it("translates a failed TLS handshake as unreachable and never retried, saying it was TLS", () => {
    const tls = networkError("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate");
    const err = ClusterformError.from(new ConnectError("self-signed certificate", Code.Unknown, undefined, undefined, tls), OP);
    expect([err.code, err.platformCode, err.unreachable, isTransient(err)]).toEqual(["Unavailable", "TLS_FAILURE", true, false]);
    expect(err.message).toBe(`${OP}: TLS_FAILURE: TLS handshake failed: self-signed certificate`);
  });

  it("names the address in the message of an unreachable error, once, and leaves reached errors alone", () => {
    const refused = ClusterformError.from(networkError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:9020"), OP);
    const named = withAddress(refused, "http://127.0.0.1:9020");
    expect(named.message).toBe(`${OP}: ECONNREFUSED: cannot reach http://127.0.0.1:9020: connect ECONNREFUSED 127.0.0.1:9020`);
    expect(withAddress(named, "http://127.0.0.1:9020")).toBe(named);
    const reached = ClusterformError.from(new ConnectError("busy", Code.Unavailable), OP);
    expect(withAddress(reached, "http://127.0.0.1:9020")).toBe(reached);
  });

  it("treats a socket hang up as Unavailable", () => {
    const err = ClusterformError.from(new Error("socket hang up"), OP);
    expect([err.code, err.platformCode]).toEqual(["Unavailable", "ECONNRESET"]);
  });

  it("keeps an error that is already translated, with its own operation", () => {
    const inner = ClusterformError.from(new ConnectError("x", Code.Internal), "GetCluster cluster \"a\"");
    expect(ClusterformError.from(inner, "outer")).toBe(inner);
  });

  it("translates non-errors as Unknown", () => {
    expect(ClusterformError.from("boom", OP).message).toBe(`${OP}: UNKNOWN: boom`);
  });

  it("blanks secrets out of the message", () => {
    const err = ClusterformError.from(new ConnectError("bad token s3cr3t", Code.Unauthenticated), OP, ["s3cr3t"]);
    expect(err.message).toBe(`${OP}: UNAUTHENTICATED: bad token [secret]`);
  });
});

describe("ClusterformError.fromHttp", () => {
  it.each<[number, unknown, ErrorCode, string]>([
    [503, "", "Unavailable", "(empty response body)"],
    [502, "Bad Gateway", "Unavailable", "Bad Gateway"],
    [504, "Gateway Timeout", "Unavailable", "Gateway Timeout"],
    [404, '{"error":"cluster not found","code":5}', "NotFound", "cluster not found"],
    [409, '{"message":"cluster prod already exists"}', "AlreadyExists", "cluster prod already exists"],
    [409, '{"code":409,"error":{"message":"cluster is busy"}}', "Conflict", "cluster is busy"],
    [412, { message: "version too old" }, "FailedPrecondition", "version too old"],
    [400, "bad name", "InvalidArgument", "bad name"],
    [401, "", "Unauthenticated", "(empty response body)"],
    [403, "forbidden", "PermissionDenied", "forbidden"],
    [429, "slow down", "ResourceExhausted", "slow down"],
    [500, '{"other":1}', "Internal", '{"other":1}'],
    [501, "nope", "Internal", "nope"],
    [418, "teapot", "Unknown", "teapot"],
  ])("translates status %s", (status, body, code, platformMessage) => {
    const err = ClusterformError.fromHttp(status, body, "GET /clusters/prod");
    expect([err.code, err.platformCode, err.platformMessage]).toEqual([code, `HTTP ${status}`, platformMessage]);
    expect(err.message).toBe(`GET /clusters/prod: HTTP ${status}: ${platformMessage}`);
  });
});

describe("isTransient", () => {
  it.each<[string, unknown, boolean]>([
    ["Unavailable", new ConnectError("x", Code.Unavailable), true],
    ["ResourceExhausted", new ConnectError("x", Code.ResourceExhausted), true],
    ["a single call's DeadlineExceeded", new ConnectError("x", Code.DeadlineExceeded), true],
    ["a network error", networkError("ECONNREFUSED", "refused"), true],
    [
      "our own deadline",
      new ClusterformError({ code: "DeadlineExceeded", platformCode: "TIMEOUT", operation: "o", platformMessage: "m", ownDeadline: true }),
      false,
    ],
    ["NotFound", new ConnectError("x", Code.NotFound), false],
    ["Internal", new ConnectError("x", Code.Internal), false],
    ["FailedPrecondition", new ConnectError("x", Code.FailedPrecondition), false],
    ["an unknown error", new Error("x"), false],
  ])("%s -> %s", (_, err, expected) => {
    expect(isTransient(err)).toBe(expected);
  });
});

describe("isLostAnswer", () => {
  it.each<[string, unknown, boolean]>([
    ["an UNAVAILABLE answer", new ConnectError("x", Code.Unavailable), true],
    ["a connection reset mid-call", networkError("ECONNRESET", "reset"), true],
    ["a call that timed out", Object.assign(new Error("timed out"), { name: "TimeoutError" }), true],
    ["a refused connection (never reached)", networkError("ECONNREFUSED", "refused"), false],
    ["a refusal for lack of resources (an answer)", new ConnectError("x", Code.ResourceExhausted), false],
    ["a permanent error", new ConnectError("x", Code.InvalidArgument), false],
  ])("%s -> %s", (_, err, expected) => {
    expect(isLostAnswer(err)).toBe(expected);
  });
});

describe("redact", () => {
  it("replaces every occurrence, longest secret first", () => {
    expect(redact("token abc and abcdef, abc", ["abc", "abcdef", ""])).toBe("token [secret] and [secret], [secret]");
  });
});

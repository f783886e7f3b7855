import type * as Connect from "@connectrpc/connect";


/** The normalized error codes every platform error is translated into. */
export type ErrorCode =
  | "NotFound"
  | "AlreadyExists"
  | "InvalidArgument"
  | "FailedPrecondition"
  | "Conflict"
  | "Unavailable"
  | "DeadlineExceeded"
  | "Unauthenticated"
  | "PermissionDenied"
  | "ResourceExhausted"
  | "Internal"
  | "Unknown"
  | "Canceled";

/** What {@link ClusterformError}'s constructor needs. */
export interface ClusterformErrorInit {
  /** The normalized code. */
  code: ErrorCode;
  /** The code or status exactly as the platform said it, e.g. `INTERNAL` or `HTTP 503`. */
  platformCode: string;
  /** What the provider was doing, e.g. `ScaleNodePool pool "gpu" of cluster "prod"`. */
  operation: string;
  /** The platform's own message, without the code. */
  platformMessage: string;
  /** The original error. @default undefined */
  cause?: unknown;
  /**
   * True when the provider's own operation deadline ran out (never retried), false when a single
   * call timed out or the platform reported a deadline.
   * @default false
   */
  ownDeadline?: boolean;
  /**
   * True when the platform was never reached: connection refused, unknown host, no route, TLS
   * handshake failure. A platform that answered, even with an error, was reached.
   * @default false
   */
  unreachable?: boolean;
}

/**
 * The one error type of the provider. Its message always reads
 * `<operation>: <platform code>: <platform message>`.
 */
export class ClusterformError extends Error {
  /** The normalized code. */
  readonly code: ErrorCode;
  /** The code or status exactly as the platform said it. */
  readonly platformCode: string;
  /** What the provider was doing. */
  readonly operation: string;
  /** The platform's own message. */
  readonly platformMessage: string;
  /** See {@link ClusterformErrorInit.ownDeadline}. */
  readonly ownDeadline: boolean;
  /** See {@link ClusterformErrorInit.unreachable}. */
  readonly unreachable: boolean;

  constructor(init: ClusterformErrorInit) {
    super(`${init.operation}: ${init.platformCode}: ${init.platformMessage}`, { cause: init.cause });
    this.name = "ClusterformError";
    this.code = init.code;
    this.platformCode = init.platformCode;
    this.operation = init.operation;
    this.platformMessage = init.platformMessage;
    this.ownDeadline = init.ownDeadline ?? false;
    this.unreachable = init.unreachable ?? false;
  }

  /**
   * Translates anything caught into a ClusterformError. A ClusterformError passes through
   * unchanged: the innermost operation is the most precise description.
   * @param secrets - strings to blank out of the message. @default []
   */
  static from(err: unknown, operation: string, secrets: readonly string[] = []): ClusterformError {
    if (err instanceof ClusterformError) return err;
    const parts = translate(err);
    return new ClusterformError({
      ...parts,
      operation: redact(operation, secrets),
      platformMessage: redact(parts.platformMessage, secrets),
      cause: err,
    });
  }

  /**
   * Translates an HTTP response of a REST platform API.
   * @param body - the response body, raw text or already parsed JSON.
   */
  static fromHttp(status: number, body: unknown, operation: string, secrets: readonly string[] = []): ClusterformError {
    const platformMessage = redact(httpBodyMessage(body), secrets);
    return new ClusterformError({
      code: httpCode(status, platformMessage),
      platformCode: `HTTP ${status}`,
      operation: redact(operation, secrets),
      platformMessage,
    });
  }
}

type Translated = Pick<ClusterformErrorInit, "code" | "platformCode" | "platformMessage" | "unreachable">;

/**
 * gRPC status codes by number (Connect's `Code` enum uses the same numbers): the platform's name of
 * each and ours. OutOfRange is a bad argument, Aborted a concurrent-change conflict.
 */
const GRPC_CODES: readonly (readonly [string, ErrorCode])[] = [
  ["OK", "Unknown"],
  ["CANCELED", "Canceled"],
  ["UNKNOWN", "Unknown"],
  ["INVALID_ARGUMENT", "InvalidArgument"],
  ["DEADLINE_EXCEEDED", "DeadlineExceeded"],
  ["NOT_FOUND", "NotFound"],
  ["ALREADY_EXISTS", "AlreadyExists"],
  ["PERMISSION_DENIED", "PermissionDenied"],
  ["RESOURCE_EXHAUSTED", "ResourceExhausted"],
  ["FAILED_PRECONDITION", "FailedPrecondition"],
  ["ABORTED", "Conflict"],
  ["OUT_OF_RANGE", "InvalidArgument"],
  ["UNIMPLEMENTED", "Internal"],
  ["INTERNAL", "Internal"],
  ["UNAVAILABLE", "Unavailable"],
  ["DATA_LOSS", "Internal"],
  ["UNAUTHENTICATED", "Unauthenticated"],
];
const CANCELED = 1;

/**
 * The error as a ConnectError, if it is one. `@connectrpc/connect` is required here rather than
 * imported: an error of its kind means a gRPC client has loaded it already, and a provider that
 * only checks and diffs (a preview) never loads gRPC at all.
 */
function asConnectError(err: unknown): Connect.ConnectError | undefined {
  if (!(err instanceof Error) || err.name !== "ConnectError") return undefined;
  const { ConnectError } = require("@connectrpc/connect") as typeof Connect;
  return err instanceof ConnectError ? err : undefined;
}

/**
 * Node socket error codes. `reached` says whether the platform was reached before the failure: a
 * reset or broken pipe ends a conversation that had started, the others never got one going.
 */
const NETWORK_CODES: Readonly<Record<string, { code: ErrorCode; reached: boolean }>> = {
  ECONNREFUSED: { code: "Unavailable", reached: false },
  ENOTFOUND: { code: "Unavailable", reached: false },
  EAI_AGAIN: { code: "Unavailable", reached: false },
  EHOSTUNREACH: { code: "Unavailable", reached: false },
  ENETUNREACH: { code: "Unavailable", reached: false },
  ETIMEDOUT: { code: "Unavailable", reached: false },
  ECONNRESET: { code: "Unavailable", reached: true },
  EPIPE: { code: "Unavailable", reached: true },
  // fetch (undici) reports a connection the server closed mid-request, e.g. while it restarts.
  UND_ERR_SOCKET: { code: "Unavailable", reached: true },
};

/** Node and OpenSSL codes of a failed TLS handshake: a configuration problem, never retried. */
const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/** The first Node system error code in an error or its causes (fetch and Connect wrap them). */
function systemCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string" && (NETWORK_CODES[code] || TLS_CODE.test(code))) return code;
    current = current.cause;
  }
  return undefined;
}

/** Translates a socket or TLS failure found anywhere in the cause chain. */
function translateNetwork(err: unknown, message: string): Translated | undefined {
  const sysCode = systemCode(err);
  if (sysCode === undefined) return undefined;
  const network = NETWORK_CODES[sysCode];
  if (network) return { code: network.code, platformCode: sysCode, platformMessage: message, unreachable: !network.reached };
  return { code: "Unavailable", platformCode: "TLS_FAILURE", platformMessage: `TLS handshake failed: ${message}`, unreachable: true };
}

const HTTP_CODES: Readonly<Record<number, ErrorCode>> = {
  400: "InvalidArgument",
  401: "Unauthenticated",
  403: "PermissionDenied",
  404: "NotFound",
  408: "DeadlineExceeded",
  409: "Conflict",
  412: "FailedPrecondition",
  422: "InvalidArgument",
  429: "ResourceExhausted",
  500: "Internal",
  502: "Unavailable",
  503: "Unavailable",
  504: "Unavailable",
};

/** How Node's HTTP/2 client words a stream the server reset. */
const STREAM_CUT = /stream closed with error code (NGHTTP2_)?CANCEL\b/;

function translate(err: unknown): Translated {
  const connectError = asConnectError(err);
  if (connectError) {
    const network = translateNetwork(connectError.cause, connectError.rawMessage);
    if (network) return network;
    // A server that goes away (a restart) resets its open HTTP/2 streams with CANCEL, which Connect
    // reports as CANCELED although nobody here cancelled: the platform was reached and left.
    if (connectError.code === CANCELED && STREAM_CUT.test(connectError.rawMessage)) {
      return { code: "Unavailable", platformCode: "UNAVAILABLE", platformMessage: connectError.rawMessage };
    }
    const [platformCode, code] = GRPC_CODES[connectError.code] ?? [String(connectError.code), "Unknown"];
    return { code, platformCode, platformMessage: connectError.rawMessage };
  }
  if (err instanceof Error) {
    const network = translateNetwork(err, causeMessage(err));
    if (network) return network;
    if (err.message === "socket hang up") {
      return { code: "Unavailable", platformCode: "ECONNRESET", platformMessage: err.message };
    }
    if (err.name === "AbortError") return { code: "Canceled", platformCode: "ABORTED", platformMessage: err.message };
    if (err.name === "TimeoutError") {
      return { code: "DeadlineExceeded", platformCode: "TIMEOUT", platformMessage: err.message };
    }
    return { code: "Unknown", platformCode: err.name, platformMessage: err.message };
  }
  return { code: "Unknown", platformCode: "UNKNOWN", platformMessage: String(err) };
}

/** `fetch failed` says nothing: the socket error is in the cause. */
function causeMessage(err: Error): string {
  return err.cause instanceof Error && err.message === "fetch failed" ? err.cause.message : err.message;
}

function httpCode(status: number, message: string): ErrorCode {
  // 409 means both "exists already" and "busy with another change" on REST APIs; the text decides.
  if (status === 409 && /already exists/i.test(message)) return "AlreadyExists";
  const code = HTTP_CODES[status];
  if (code) return code;
  return status >= 500 ? "Internal" : "Unknown";
}

const MAX_BODY_CHARS = 500;

/** Pulls the human message out of the JSON error shapes of the platforms, else the raw text. */
function httpBodyMessage(body: unknown): string {
  let parsed = body;
  if (typeof body === "string") {
    try {
      parsed = JSON.parse(body);
    } catch {
      return body.trim().slice(0, MAX_BODY_CHARS) || "(empty response body)";
    }
  }
  const found = findMessage(parsed);
  if (found !== undefined) return found.slice(0, MAX_BODY_CHARS);
  if (parsed === undefined || parsed === null || parsed === "") return "(empty response body)";
  return JSON.stringify(parsed).slice(0, MAX_BODY_CHARS);
}

function findMessage(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ["message", "error", "Message", "detail", "title"]) {
    const inner = findMessage(record[key]);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * Replaces every occurrence of each secret in `text` with `[secret]`. Longer secrets are replaced
 * first so that a secret containing another is blanked whole.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const sorted = secrets.filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of sorted) out = out.split(secret).join("[secret]");
  return out;
}

/** Names the address in the message of an error that never reached the platform. */
export function withAddress(err: ClusterformError, endpoint: string): ClusterformError {
  if (!err.unreachable || err.platformMessage.startsWith("cannot reach ")) return err;
  return new ClusterformError({
    code: err.code,
    platformCode: err.platformCode,
    operation: err.operation,
    platformMessage: `cannot reach ${endpoint}: ${err.platformMessage}`,
    cause: err.cause,
    unreachable: true,
  });
}

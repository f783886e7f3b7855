import { randomUUID } from "node:crypto";
import { type Clock, Deadline } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";
import { retryTransient, type Sleep } from "../../core/retry";

/** HTTP methods a REST platform call uses. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";

/**
 * How a REST client authenticates: headers for each attempt, and a way to drop cached
 * credentials when the server answers 401 so that the next attempt authenticates afresh.
 */
export interface RestAuth {
  /** Headers to add to the next attempt (e.g. `X-Auth-Token`); may obtain or renew a token. */
  headers(deadline: Deadline): Promise<Record<string, string>>;
  /** Forgets cached credentials after a 401. */
  invalidate(): void;
  /** Secret strings to blank out of every error message (passwords, tokens). */
  secrets(): string[];
}

/** Options of {@link createRestCaller}. */
export interface RestCallerOptions {
  /** Base URL every request path is appended to; a function when it must be discovered (a service catalog). */
  baseUrl: string | ((deadline: Deadline) => Promise<string>);
  /** Header carrying the request id. @default "x-request-id" */
  requestIdHeader?: string;
  /** Start of every request id. @default "clusterform" */
  requestIdPrefix?: string;
  /** Time limit of one attempt, cut to what the deadline has left. @default 30000 */
  callTimeoutMs?: number;
  /** How long a retried call keeps trying a platform that is never reached, however long the deadline. @default 60000 */
  unreachableTimeoutMs?: number;
  /** Deadline of a call, retries included, when the caller gives none. @default 120000 */
  defaultDeadlineMs?: number;
  /** Authentication; none when undefined. @default undefined */
  auth?: RestAuth;
  /** More secret strings to blank out of error messages, beyond the auth's. @default none */
  secrets?: () => string[];
  /** Headers sent with every request. @default {} */
  headers?: Record<string, string>;
  /** Sleep between retries (tests pass a fake). @default real timers */
  sleep?: Sleep;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
  /** Clock of default deadlines. @default Date.now */
  clock?: Clock;
  /** The fetch implementation. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** One request: a path below the base URL, an optional query and JSON body. */
export interface RestRequest {
  method: HttpMethod;
  /** Path below the base URL, starting with `/`. */
  path: string;
  /** Query parameters; undefined values are left out. @default {} */
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** JSON body. @default undefined (no body) */
  body?: unknown;
  /** Extra headers of this request. @default {} */
  headers?: Readonly<Record<string, string>>;
}

/** A successful response. */
export interface RestResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** The parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: T;
  /** The request id this attempt sent. */
  requestId: string;
}

/** Per-call options. */
export interface RestCallOptions {
  /** The call and its retries end by this deadline. @default `defaultDeadlineMs` from now */
  deadline?: Deadline;
}

/** Runs REST requests with request ids, per-attempt timeouts, authentication and translated errors. */
export interface RestCaller {
  /** One attempt (plus one re-authenticated attempt after a 401), never retried: for calls that are not idempotent. */
  once<T>(operation: string, request: RestRequest, options?: RestCallOptions): Promise<RestResponse<T>>;
  /** Retries transient errors within the deadline: for idempotent calls. */
  retried<T>(operation: string, request: RestRequest, options?: RestCallOptions, attemptHook?: AttemptHook): Promise<RestResponse<T>>;
}

/** Sees every failed attempt of a retried call (its number, 0 first); may turn the error into a result. */
export type AttemptHook = (error: ClusterformError, attempt: number) => RestResponse<never> | undefined;

function urlOf(base: string, request: RestRequest): string {
  const url = new URL(base.replace(/\/+$/, "") + request.path);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.append(key, String(value));
  }
  return url.toString();
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `fetch` reports network failures as "fetch failed" with the socket error as cause: translate the cause. */
function transportError(err: unknown): unknown {
  if (err instanceof TypeError && err.message === "fetch failed" && err.cause instanceof Error) return err.cause;
  return err;
}

/** Creates a {@link RestCaller}. */
export function createRestCaller(options: RestCallerOptions): RestCaller {
  const prefix = options.requestIdPrefix ?? "clusterform";
  const idHeader = options.requestIdHeader ?? "x-request-id";
  const callTimeoutMs = options.callTimeoutMs ?? 30_000;
  const doFetch = options.fetch ?? globalThis.fetch;
  const deadlineOf = (o?: RestCallOptions) => o?.deadline ?? new Deadline(options.defaultDeadlineMs ?? 120_000, options.clock);
  const secrets = () => [...(options.auth?.secrets() ?? []), ...(options.secrets?.() ?? [])];
  const baseOf = (deadline: Deadline) => (typeof options.baseUrl === "string" ? Promise.resolve(options.baseUrl) : options.baseUrl(deadline));

  async function send<T>(operation: string, request: RestRequest, deadline: Deadline): Promise<RestResponse<T>> {
    const requestId = `${prefix}-${randomUUID()}`;
    const headers: Record<string, string> = { Accept: "application/json", ...options.headers, ...request.headers, [idHeader]: requestId };
    if (options.auth) Object.assign(headers, await options.auth.headers(deadline));
    if (request.body !== undefined) headers["Content-Type"] = "application/json";
    const url = urlOf(await baseOf(deadline), request);
    let response: Response;
    let text: string;
    try {
      const signal = AbortSignal.timeout(Math.max(1, Math.min(callTimeoutMs, deadline.remainingMs())));
      const body = request.body === undefined ? undefined : JSON.stringify(request.body);
      response = await doFetch(url, { method: request.method, headers, body, signal });
      text = await response.text();
    } catch (err) {
      throw ClusterformError.from(transportError(err), operation, secrets());
    }
    const parsed = parseBody(text);
    if (!response.ok) throw ClusterformError.fromHttp(response.status, parsed ?? text, operation, secrets());
    return { status: response.status, headers: response.headers, body: parsed as T, requestId };
  }

  /** One attempt; a 401 drops the cached credentials and tries once more, since the server did nothing. */
  async function attempt<T>(operation: string, request: RestRequest, deadline: Deadline): Promise<RestResponse<T>> {
    try {
      return await send<T>(operation, request, deadline);
    } catch (err) {
      const error = ClusterformError.from(err, operation, secrets());
      if (error.code !== "Unauthenticated" || !options.auth || error.platformCode !== "HTTP 401") throw error;
      options.auth.invalidate();
      return send<T>(operation, request, deadline);
    }
  }

  return {
    once(operation, request, o) {
      const deadline = deadlineOf(o);
      deadline.throwIfExpired(operation);
      return attempt(operation, request, deadline);
    },
    retried(operation, request, o, hook) {
      const deadline = deadlineOf(o);
      const { sleep, random, unreachableTimeoutMs: unreachableMs } = options;
      return retryTransient(
        async (n) => {
          try {
            return await attempt(operation, request, deadline);
          } catch (err) {
            const error = ClusterformError.from(err, operation, secrets());
            const replaced = hook?.(error, n);
            if (replaced) return replaced;
            throw error;
          }
        },
        { deadline, operation, sleep, random, unreachableMs },
      );
    },
  };
}

/**
 * An attempt hook for deletes: a delete whose reply was lost may have landed, so NotFound on a
 * retry means the earlier attempt deleted the object.
 */
export const goneOnRetryHook: AttemptHook = (error, attempt) =>
  attempt > 0 && error.code === "NotFound" ? { status: 404, headers: new Headers(), body: undefined as never, requestId: "" } : undefined;

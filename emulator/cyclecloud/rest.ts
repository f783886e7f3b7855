import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import type { CallPipeline } from "../calls";
import { BodyTooLargeError, type HttpRequest, type HttpResponse, headerValue, type RouteHandler, readBody, sendJson, sendText } from "../http-json";
import { type CycleCloudEnv, invalidInput, type RestCall, type RestReply } from "./context";
import { createNodes, scaleNodearray } from "./create-handlers";
import { MANAGEMENT_ACTIONS, manageNodes } from "./manage-handlers";
import { getNodes, getOperation, listOperations } from "./query-handlers";
import { getClusterStatus } from "./status-handler";
import { getClusterUsage } from "./usage-handler";

/** The API name CycleCloud calls are audited and matched under. */
export const CYCLECLOUD_API = "cyclecloud";

interface Route {
  method: "GET" | "POST";
  pattern: RegExp;
  /** The documented name calls are audited and faults matched under. */
  operation: string;
  run(env: CycleCloudEnv, call: RestCall): RestReply;
}

const capitalize = (s: string): string => s[0].toUpperCase() + s.slice(1);

/** The CycleCloud cluster REST API: paths hang off the server root, with no version prefix. */
const ROUTES: readonly Route[] = [
  { method: "GET", pattern: /^\/clusters\/([^/]+)\/nodes$/, operation: "GetNodes", run: getNodes },
  { method: "POST", pattern: /^\/clusters\/([^/]+)\/nodes\/create$/, operation: "CreateNodes", run: createNodes },
  ...MANAGEMENT_ACTIONS.map(
    (action): Route => ({
      method: "POST",
      pattern: new RegExp(`^/clusters/([^/]+)/nodes/${action}$`),
      operation: `${capitalize(action)}Nodes`,
      run: (env, call) => manageNodes(env, call, action),
    }),
  ),
  { method: "POST", pattern: /^\/clusters\/([^/]+)\/scale\/([^/]+)$/, operation: "ScaleNodearray", run: scaleNodearray },
  { method: "GET", pattern: /^\/clusters\/([^/]+)\/status$/, operation: "GetClusterStatus", run: getClusterStatus },
  { method: "GET", pattern: /^\/clusters\/([^/]+)\/usage$/, operation: "GetClusterUsage", run: getClusterUsage },
  { method: "GET", pattern: /^\/operations\/?$/, operation: "ListOperations", run: listOperations },
  { method: "GET", pattern: /^\/operations\/([^/]+)$/, operation: "GetOperation", run: getOperation },
];

/** The operation names of the REST API, as audited and as faults name them. */
export const CYCLECLOUD_OPERATIONS: readonly string[] = ROUTES.map((r) => r.operation);

/** HTTP status per error code; invalid input is 409 on POST (as documented) and 400 on GET. */
const HTTP_STATUS: Readonly<Partial<Record<Code, number>>> = {
  [Code.NotFound]: 404,
  [Code.AlreadyExists]: 409,
  [Code.FailedPrecondition]: 409,
  [Code.Aborted]: 409,
  [Code.Unauthenticated]: 401,
  [Code.PermissionDenied]: 403,
  [Code.ResourceExhausted]: 429,
  [Code.OutOfRange]: 400,
  [Code.Unimplemented]: 501,
  [Code.Unavailable]: 503,
  [Code.DeadlineExceeded]: 504,
};

function httpStatusOf(error: ConnectError, method: string): number {
  if (error.code === Code.InvalidArgument) return method === "POST" ? 409 : 400;
  return HTTP_STATUS[error.code] ?? 500;
}

/** HTTP Basic credentials the server accepts. */
export interface Credentials {
  user: string;
  password: string;
}

const digest = (s: string): Buffer => createHash("sha256").update(s).digest();

/** Whether the request carries the configured Basic credentials (compared in constant time). */
function isAuthorized(req: HttpRequest, credentials: Credentials): boolean {
  const header = headerValue(req, "authorization") ?? "";
  const match = /^Basic\s+(\S+)$/i.exec(header);
  if (!match) return false;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return false;
  const userOk = timingSafeEqual(digest(decoded.slice(0, colon)), digest(credentials.user));
  const passwordOk = timingSafeEqual(digest(decoded.slice(colon + 1)), digest(credentials.password));
  return userOk && passwordOk;
}

/** The body as the audit keeps it: parsed, or nothing when it is not JSON (the call then fails on its own). */
function bodyForAudit(text: string): unknown {
  try {
    return text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw invalidInput("invalid body: expected a JSON object");
  }
}

/** The requestId of a body, for the audit log, without failing on a bad body. */
function bodyRequestId(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { requestId?: unknown } | null)?.requestId;
    return typeof id === "string" && id !== "" ? id : undefined;
  } catch {
    return undefined;
  }
}

function reply(res: HttpResponse, result: RestReply): void {
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
  sendJson(res, result.status, result.body);
}

/**
 * The CycleCloud REST handler: answers `/clusters/...` and `/operations/...`, asks for HTTP Basic
 * credentials first (401 without them, not audited: the call never reaches the API), then runs
 * the route through the call pipeline. Errors are plain text with the status CycleCloud uses.
 */
export function createCycleCloudRest(env: CycleCloudEnv, pipeline: CallPipeline, credentials: Credentials): RouteHandler {
  return async (req, res, url) => {
    const path = url.pathname;
    if (!path.startsWith("/clusters/") && path !== "/operations" && !path.startsWith("/operations/")) return false;
    if (!isAuthorized(req, credentials)) {
      res.setHeader("WWW-Authenticate", 'Basic realm="CycleCloud"');
      sendText(res, 401, "authentication required: send HTTP Basic credentials");
      return true;
    }
    const matching = ROUTES.filter((r) => r.pattern.test(path));
    const route = matching.find((r) => r.method === req.method);
    if (!route) {
      if (matching.length > 0) res.setHeader("Allow", matching.map((r) => r.method).join(", "));
      sendText(res, matching.length > 0 ? 405 : 404, matching.length > 0 ? "Method Not Allowed" : `no route for ${req.method} ${path}`);
      return true;
    }
    const params = route.pattern.exec(path)!.slice(1).map(decodeURIComponent);
    try {
      const text = route.method === "POST" ? await readBody(req) : "";
      const info = {
        api: CYCLECLOUD_API,
        operation: route.operation,
        target: params.join("/"),
        requestId: bodyRequestId(text) ?? headerValue(req, "x-request-id") ?? randomUUID(),
        request: bodyForAudit(text),
      };
      const result = await pipeline(info, (ctx) => route.run(env, { params, query: url.searchParams, body: parseJson(text), ctx, info }));
      reply(res, result);
    } catch (cause) {
      if (cause instanceof BodyTooLargeError) {
        sendText(res, 413, cause.message);
        return true;
      }
      const error = ConnectError.from(cause);
      sendText(res, httpStatusOf(error, route.method), error.rawMessage);
    }
    return true;
  };
}

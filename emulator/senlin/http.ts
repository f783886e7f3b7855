import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { Code, ConnectError } from "@connectrpc/connect";
import type { CallPipeline } from "../calls";
import { inTransaction } from "../database";
import { type HttpRequest, type HttpResponse, headerValue, type RouteHandler, readBody } from "../http-json";
import { type TokenInfo, validateToken } from "../keystone/tokens";
import type { SenlinEnv, SenlinReply } from "./context";
import { badRequest, faultBody, faultWrapper, SenlinError, UNAUTHORIZED_BODY, webobErrorPage } from "./errors";
import { applyDueActions, settleDueActions } from "./lifecycle";
import { formatMicroversion, type NegotiatedVersion, negotiateMicroversion } from "./microversion";
import { matchPath, SENLIN_ROUTES, type SenlinRoute } from "./routes";
import { discoveryReply } from "./version-routes";

/** The API name Senlin calls are audited and matched under. */
export const SENLIN_API = "senlin";

/** What the HTTP layer needs beyond the handlers' environment. */
export interface SenlinHttpDeps {
  env: SenlinEnv;
  db: DatabaseSync;
  pipeline: CallPipeline;
  baseUrl(): string;
}

/** The caller of a public route (a webhook trigger acts as its receiver's owner, not as this). */
const PUBLIC_CALLER: TokenInfo = { auditId: "", userId: "", userName: "", projectId: "", projectName: "", domainId: "", domainName: "", roles: [], issuedMs: 0, expiresMs: 0 };

/** A reply with the headers the transport adds. */
interface Outgoing {
  status: number;
  body?: unknown;
  headers: Record<string, string>;
}

function write(res: HttpResponse, out: Outgoing): void {
  res.statusCode = out.status;
  for (const [name, value] of Object.entries(out.headers)) res.setHeader(name, value);
  if (out.body === undefined) {
    res.end();
    return;
  }
  const text = JSON.stringify(out.body);
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/** The JSON body, undefined when empty; malformed JSON is remembered and refused inside the call. */
async function readJson(req: HttpRequest): Promise<{ body: unknown; malformed: boolean }> {
  const text = await readBody(req);
  if (text.trim() === "") return { body: undefined, malformed: false };
  try {
    return { body: JSON.parse(text), malformed: false };
  } catch {
    return { body: undefined, malformed: true };
  }
}

/** The audit target: the identity the path names, or the name a create body gives. */
function targetOf(params: Record<string, string>, body: unknown): string {
  const id = params.cluster_id ?? params.node_id ?? params.profile_id ?? params.policy_id ?? params.action_id ?? params.event_id ?? params.type_name ?? params.receiver_id ?? params.webhook_id;
  if (id !== undefined) return id;
  const inner = body && typeof body === "object" ? Object.values(body as Record<string, unknown>)[0] : undefined;
  const name = inner && typeof inner === "object" ? (inner as { name?: unknown }).name : undefined;
  return typeof name === "string" ? name : "";
}

function findRoute(method: string, path: string): { route?: SenlinRoute; params?: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  for (const route of SENLIN_ROUTES) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    pathKnown = true;
    if (route.method === method) return { route, params, pathKnown };
  }
  return { pathKnown };
}

/** The Senlin v1 API under `/v1`: Keystone tokens, microversions, the FaultWrapper, actions on the clock. */
export function createSenlinHttp(deps: SenlinHttpDeps): RouteHandler {
  const { env } = deps;
  return async (req, res, url) => {
    const discovery = discoveryReply(req.method ?? "GET", url.pathname, deps.baseUrl(), env.maxVersion);
    if (!discovery && !url.pathname.startsWith("/v1/")) return false;
    const requestId = `req-${randomUUID()}`;
    const headers: Record<string, string> = { "X-OpenStack-Request-ID": requestId };
    if (discovery) {
      const info = { api: SENLIN_API, operation: discovery.operation, target: "", requestId: headerValue(req, "x-openstack-request-id") ?? requestId };
      try {
        const reply = await deps.pipeline(info, () => discovery);
        write(res, { status: reply.status, body: reply.body, headers });
      } catch (cause) {
        const { status, body: fault } = faultWrapper(ConnectError.from(cause));
        write(res, { status, body: fault, headers });
      }
      return true;
    }
    const { route, params, pathKnown } = findRoute(req.method ?? "GET", url.pathname);
    if (!route || !params) {
      const [status, type, message] = pathKnown
        ? [405, "HTTPMethodNotAllowed", `The method ${req.method} is not allowed on ${url.pathname}.`]
        : [404, "HTTPNotFound", `No route for ${url.pathname}.`];
      write(res, { status, headers, body: faultBody(status, type, message) });
      return true;
    }
    const { body, malformed } = await readJson(req);
    const operation = typeof route.operation === "string" ? route.operation : route.operation(body);
    const info = { api: SENLIN_API, operation, target: targetOf(params, body), requestId: headerValue(req, "x-openstack-request-id") ?? requestId, request: malformed ? undefined : body };
    let negotiated: NegotiatedVersion | undefined;
    try {
      const reply = await deps.pipeline(info, (call): SenlinReply => {
        // Senlin's paste pipeline negotiates the version before keystonemiddleware checks the token.
        negotiated = negotiateMicroversion(headerValue(req, "openstack-api-version"), env.maxVersion);
        const token = route.public ? PUBLIC_CALLER : validateToken(deps.db, headerValue(req, "x-auth-token"), env.clock.now());
        if (!token) throw new ConnectError(UNAUTHORIZED_BODY.error.message, Code.Unauthenticated);
        if (malformed) throw badRequest("The request body is not valid JSON.");
        const nowMs = env.clock.now();
        settleDueActions(env, nowMs);
        const version = negotiated.version;
        return inTransaction(deps.db, () => {
          const result = route.handle({ env, token, version, params, query: url.searchParams, body, call, nowMs });
          // An action that starts at once shows RUNNING to the very next read (same transaction: one commit).
          applyDueActions(env, nowMs);
          return result;
        });
      });
      // The controller answers `/actions/<id>`; WebOb makes it absolute against the request's own
      // address, so real clients get `http://<host they called>/v1/actions/<id>` (seen on Senlin 14).
      if (reply.actionId) headers.Location = `${requestOrigin(req, deps.baseUrl())}/v1/actions/${reply.actionId}`;
      // Senlin's wsgi.Resource stamps the version on what a handler returns (1.0 when none was
      // asked for); a reply without a body is an exception the handler raised (HTTPNoContent,
      // HTTPAccepted), which goes out as it is, without the header.
      const stamped = reply.body === undefined ? {} : versionHeaders(negotiated);
      write(res, { status: reply.status, body: reply.body, headers: { ...headers, ...stamped } });
    } catch (cause) {
      const error = ConnectError.from(cause);
      if (error.code === Code.Unauthenticated) {
        headers["WWW-Authenticate"] = `Keystone uri="${deps.baseUrl()}/v3"`;
        write(res, { status: 401, headers, body: UNAUTHORIZED_BODY });
      } else if (error instanceof SenlinError && error.type === "InvalidAPIVersionString") {
        res.statusCode = 400;
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        res.setHeader("Content-Type", "text/html; charset=UTF-8");
        res.end(webobErrorPage(400, error.rawMessage));
      } else {
        // The FaultWrapper answers a new response: no version header on errors.
        const { status, body: fault } = faultWrapper(error);
        write(res, { status, body: fault, headers });
      }
    }
    return true;
  };
}

function versionHeaders(negotiated: NegotiatedVersion | undefined): Record<string, string> {
  if (!negotiated) return {};
  return { "OpenStack-API-Version": `clustering ${formatMicroversion(negotiated.version)}`, Vary: "OpenStack-API-Version" };
}

/** `http://<the host the caller named>`, as WebOb builds absolute URLs; the plane's own address without one. */
function requestOrigin(req: HttpRequest, fallback: string): string {
  const host = headerValue(req, "host") ?? headerValue(req, ":authority");
  return host ? `http://${host}` : fallback;
}

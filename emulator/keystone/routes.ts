import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import { ConnectError } from "@connectrpc/connect";
import type { CallPipeline } from "../calls";
import type { Clock } from "../clock";
import { httpStatusFromCode } from "../grpc-codes";
import { type HttpRequest, type HttpResponse, headerValue, type RouteHandler, readBody } from "../http-json";
import type { KeystoneConfig } from "./identity";
import { authenticate, KeystoneError, renderToken, UNAUTHORIZED_MESSAGE } from "./token-body";
import { issueToken, revokeToken, validateToken } from "./tokens";

/** The API name Keystone calls are audited and matched under. */
export const KEYSTONE_API = "keystone";

/** Documented operation names of the Keystone routes, as audited and as faults name them. */
export const KEYSTONE_OPERATIONS = ["GetVersion", "CreateToken", "ValidateToken", "RevokeToken"] as const;

type Operation = (typeof KEYSTONE_OPERATIONS)[number];

/** What the Keystone routes need. */
export interface KeystoneEnv {
  db: DatabaseSync;
  clock: Clock;
  config: KeystoneConfig;
  pipeline: CallPipeline;
  baseUrl(): string;
}

/** A reply: status, JSON body (none for 204) and extra headers. */
interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const TITLES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

function send(res: HttpResponse, requestId: string, reply: Reply): void {
  res.statusCode = reply.status;
  res.setHeader("X-OpenStack-Request-ID", requestId);
  res.setHeader("Vary", "X-Auth-Token");
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  if (reply.body === undefined) {
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/** Keystone's error body: `{"error": {"code", "message", "title"}}`. */
function errorReply(error: ConnectError): Reply {
  const status = error instanceof KeystoneError ? error.status : httpStatusFromCode(error.code);
  return { status, body: { error: { code: status, message: error.rawMessage, title: TITLES[status] ?? "Error" } } };
}

async function jsonBody(req: HttpRequest): Promise<unknown> {
  const text = await readBody(req);
  try {
    return JSON.parse(text);
  } catch {
    throw new KeystoneError(400, "Malformed request body: expected a JSON object.");
  }
}

/** Both tokens of a validate or revoke call: the caller's must be valid, the subject must exist. */
function subjectOf(env: KeystoneEnv, req: HttpRequest) {
  const now = env.clock.now();
  if (!validateToken(env.db, headerValue(req, "x-auth-token"), now)) throw new KeystoneError(401, UNAUTHORIZED_MESSAGE);
  const subject = headerValue(req, "x-subject-token") ?? "";
  const info = validateToken(env.db, subject, now);
  // The real message names the token; this one does not, so a token never reaches a log.
  if (!info) throw new KeystoneError(404, "Could not find token.");
  return { subject, info };
}

type Handler = (env: KeystoneEnv, req: HttpRequest) => Promise<Reply> | Reply;

const HANDLERS: Readonly<Record<Operation, Handler>> = {
  GetVersion: (env) => ({
    status: 200,
    body: {
      version: {
        id: "v3.14",
        status: "stable",
        updated: "2020-04-07T00:00:00Z",
        links: [{ rel: "self", href: `${env.baseUrl()}/v3/` }],
        "media-types": [{ base: "application/json", type: "application/vnd.openstack.identity-v3+json" }],
      },
    },
  }),
  CreateToken: async (env, req) => {
    const info = authenticate(env.config, await jsonBody(req), env.clock.now());
    const token = issueToken(env.db, info);
    return { status: 201, body: { token: renderToken(env.config, info, env.baseUrl()) }, headers: { "X-Subject-Token": token } };
  },
  ValidateToken: (env, req) => {
    const { subject, info } = subjectOf(env, req);
    return { status: 200, body: { token: renderToken(env.config, info, env.baseUrl()) }, headers: { "X-Subject-Token": subject } };
  },
  RevokeToken: (env, req) => {
    const { subject } = subjectOf(env, req);
    revokeToken(env.db, subject, env.clock.now());
    return { status: 204 };
  },
};

/** The operation a request maps to, or undefined when no route matches. */
const ROUTES: Readonly<Record<string, Readonly<Record<string, Operation>>>> = {
  "/v3": { GET: "GetVersion" },
  "/v3/": { GET: "GetVersion" },
  "/v3/auth/tokens": { POST: "CreateToken", GET: "ValidateToken", HEAD: "ValidateToken", DELETE: "RevokeToken" },
};

/** A minimal Keystone v3 under `/v3`: password tokens with a catalog, validation and revocation. */
export function createKeystoneRoutes(env: KeystoneEnv): RouteHandler {
  return async (req, res, url) => {
    const methods = ROUTES[url.pathname];
    if (!methods) return false;
    const requestId = `req-${randomUUID()}`;
    const operation = methods[req.method ?? ""];
    if (!operation) {
      send(res, requestId, { status: 405, body: { error: { code: 405, message: "The method is not allowed for the requested URL.", title: "Method Not Allowed" } } });
      return true;
    }
    const info = { api: KEYSTONE_API, operation, target: "", requestId: headerValue(req, "x-openstack-request-id") ?? requestId };
    let reply: Reply;
    try {
      reply = await env.pipeline(info, () => HANDLERS[operation](env, req));
    } catch (error) {
      reply = errorReply(ConnectError.from(error));
    }
    send(res, requestId, reply);
    return true;
  };
}

import { type DescMessage, type DescMethodUnary, fromJson, type JsonValue, type Message, toJson } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { Cluster } from "../../proto/gen/cmassh/api_pb";
import { httpStatusFromCode } from "../grpc-codes";
import {
  BodyTooLargeError,
  type HttpRequest,
  type HttpResponse,
  headerValue,
  type RouteHandler,
  readBody,
  sendJson,
  sendText,
} from "../http-json";
import type { CmasshService } from "./service";

interface GatewayRoute {
  method: string;
  path: string;
  rpc: DescMethodUnary;
  /** Whether the request message is the JSON body (`body: "*"`); otherwise it comes from the query. */
  body: boolean;
}

/** The `google.api.http` annotations of cma-ssh's api.proto. */
const ROUTES: readonly GatewayRoute[] = [
  { method: "POST", path: "/api/v1/cluster", rpc: Cluster.method.createCluster, body: true },
  { method: "GET", path: "/api/v1/cluster", rpc: Cluster.method.getCluster, body: false },
  { method: "DELETE", path: "/api/v1/cluster", rpc: Cluster.method.deleteCluster, body: false },
  { method: "GET", path: "/api/v1/cluster/list", rpc: Cluster.method.getClusterList, body: false },
  { method: "GET", path: "/api/v1/version", rpc: Cluster.method.getVersionInformation, body: false },
  { method: "POST", path: "/api/v1/cluster/pool", rpc: Cluster.method.addNodePool, body: true },
  { method: "DELETE", path: "/api/v1/cluster/pool", rpc: Cluster.method.deleteNodePool, body: false },
  { method: "PUT", path: "/api/v1/cluster/pool", rpc: Cluster.method.scaleNodePool, body: true },
  { method: "GET", path: "/api/v1/cluster/upgrade", rpc: Cluster.method.getUpgradeClusterInformation, body: false },
  { method: "PUT", path: "/api/v1/cluster/upgrade", rpc: Cluster.method.upgradeCluster, body: true },
];

/**
 * Builds a request from query parameters as grpc-gateway v1 does: proto or JSON field names,
 * repeated fields from repeated keys, unknown keys ignored.
 */
function messageFromQuery(schema: DescMessage, query: URLSearchParams): Message {
  const json: Record<string, JsonValue> = {};
  for (const field of schema.fields) {
    const values = [...query.getAll(field.name), ...query.getAll(field.jsonName)];
    if (values.length === 0) continue;
    json[field.name] = field.fieldKind === "list" ? values : values[values.length - 1];
  }
  return fromJson(schema, json, { ignoreUnknownFields: false });
}

/** Parses a JSON body with jsonpb rules: unknown fields are errors, an empty body is an empty message. */
async function messageFromBody(schema: DescMessage, req: HttpRequest): Promise<Message> {
  const text = await readBody(req);
  if (text.trim() === "") return fromJson(schema, {});
  return fromJson(schema, JSON.parse(text) as JsonValue, { ignoreUnknownFields: false });
}

async function parseRequest(route: GatewayRoute, req: HttpRequest, url: URL): Promise<Message> {
  try {
    return route.body ? await messageFromBody(route.rpc.input, req) : messageFromQuery(route.rpc.input, url.searchParams);
  } catch (cause) {
    if (cause instanceof BodyTooLargeError) throw new ConnectError(cause.message, Code.ResourceExhausted);
    throw new ConnectError(cause instanceof Error ? cause.message : String(cause), Code.InvalidArgument);
  }
}

/** grpc-gateway v1.8.5's error body: `error` and `message` both carry the status message. */
function sendError(res: HttpResponse, error: ConnectError): void {
  sendJson(res, httpStatusFromCode(error.code), { error: error.rawMessage, code: error.code, message: error.rawMessage });
}

/**
 * The cma-ssh REST gateway under `/api/`: maps HTTP to request messages and replies back to JSON
 * with original proto field names, enum names and zero values omitted; the RPCs run in `service`.
 */
export function createCmasshGateway(service: CmasshService): RouteHandler {
  return async (req, res, url) => {
    if (!url.pathname.startsWith("/api/")) return false;
    const candidates = ROUTES.filter((r) => r.path === url.pathname);
    const route = candidates.find((r) => r.method === req.method);
    // Without a route, grpc-gateway v1 answers through Go's http.Error: plain text.
    if (!route) {
      if (candidates.length > 0) sendText(res, 405, "Method Not Allowed");
      else sendText(res, 404, "Not Found");
      return true;
    }
    try {
      const request = await parseRequest(route, req, url);
      const reply = await service.invoke(route.rpc, request, headerValue(req, "x-request-id"));
      sendJson(res, 200, toJson(route.rpc.output, reply, { useProtoFieldName: true }));
    } catch (cause) {
      sendError(res, ConnectError.from(cause));
    }
    return true;
  };
}

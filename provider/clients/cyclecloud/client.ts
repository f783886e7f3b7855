import type { Clock } from "../../core/deadline";
import { ClusterformError, withAddress } from "../../core/errors";
import type { Sleep } from "../../core/retry";
import { basicAuth } from "../shared/basic-auth";
import { createRestCaller, goneOnRetryHook, type RestCallOptions, type RestRequest, type RestResponse } from "../shared/rest-caller";
import type {
  ClusterStatus,
  ManagementAction,
  NodeCreationRequest,
  NodeCreationResult,
  NodeList,
  NodeManagementRequest,
  NodeManagementResult,
  NodeQuery,
  OperationStatus,
} from "./types";

export type { RestCallOptions as CallOptions } from "../shared/rest-caller";

/** Options of {@link createCycleCloudClient}. */
export interface CycleCloudClientOptions {
  /** The CycleCloud web server root, e.g. `https://cyclecloud.example.com` (paths hang directly off it). */
  endpoint: string;
  /** HTTP Basic user name. */
  username: string;
  /** HTTP Basic password; blanked out of every error message. */
  password: string;
  /** How long an unreachable server is retried by idempotent calls. @default 60000 */
  unreachableTimeoutMs?: number;
  /** Time limit of one request, cut to what the deadline has left. @default 30000 */
  callTimeoutMs?: number;
  /** Deadline of a call, retries included, when the caller gives none. @default 120000 */
  defaultDeadlineMs?: number;
  /** Sleep between retries (tests pass a fake). @default real timers */
  sleep?: Sleep;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
  /** Clock of deadlines. @default Date.now */
  clock?: Clock;
}

/** An accepted (202) call: its result and the operation's URL from `Location`. */
export interface Accepted<T> {
  value: T;
  /** The `Location` header, or `/operations/<operationId>` when the server sent none. */
  location: string;
}

/**
 * The CycleCloud cluster REST API with plain objects in and out. Reads, management calls without a
 * `requestId` (selecting nodes again is harmless) and creates with one (a repeat is answered 409,
 * which the caller reads as "already asked") retry transient errors within the deadline; the rest
 * are sent once.
 * Errors are ClusterformErrors naming the call and its object; the password never appears in them.
 */
export interface CycleCloudClient {
  /** The server root the calls go to. */
  readonly endpoint: string;
  /** POST `/clusters/{cluster}/nodes/create`. */
  createNodes(cluster: string, request: NodeCreationRequest, options?: RestCallOptions): Promise<Accepted<NodeCreationResult>>;
  /** POST `/clusters/{cluster}/nodes/{action}` for the union of the request's selectors. */
  manageNodes(cluster: string, action: ManagementAction, request: NodeManagementRequest, options?: RestCallOptions): Promise<Accepted<NodeManagementResult>>;
  /** POST `/clusters/{cluster}/scale/{nodearray}`: adds nodes (never removes any) up to a total. */
  scaleNodearray(
    cluster: string,
    nodearray: string,
    total: { totalNodeCount: number } | { totalCoreCount: number },
    options?: RestCallOptions,
  ): Promise<Accepted<NodeCreationResult>>;
  /** GET `/clusters/{cluster}/nodes`: every node, or an operation's or a request's. */
  listNodes(cluster: string, query?: NodeQuery, options?: RestCallOptions): Promise<NodeList>;
  /** GET `/clusters/{cluster}/status`. */
  getClusterStatus(cluster: string, withNodes?: boolean, options?: RestCallOptions): Promise<ClusterStatus>;
  /** GET `/operations/{id}`. */
  getOperation(id: string, options?: RestCallOptions): Promise<OperationStatus>;
  /** GET `/operations/?request_id=`: zero or one operation. */
  findOperationsByRequestId(requestId: string, options?: RestCallOptions): Promise<OperationStatus[]>;
}

const q = (s: string) => JSON.stringify(s);
const seg = encodeURIComponent;

/** The operation's URL: `Location` when sent, else the documented path. */
function locationOf(response: RestResponse<unknown>, operationId: string): string {
  return response.headers.get("location") ?? `/operations/${operationId}`;
}

function querySelector(query: NodeQuery | undefined): Record<string, string | undefined> {
  if (query && "operation" in query) return { operation: query.operation };
  if (query && "requestId" in query) return { request_id: query.requestId };
  return {};
}

function describeQuery(query: NodeQuery | undefined): string {
  if (query && "operation" in query) return ` of operation ${q(query.operation)}`;
  if (query && "requestId" in query) return ` of request ${q(query.requestId)}`;
  return "";
}

/** Creates a {@link CycleCloudClient} authenticating with HTTP Basic. */
export function createCycleCloudClient(options: CycleCloudClientOptions): CycleCloudClient {
  const endpoint = options.endpoint.replace(/\/+$/, "");
  const { callTimeoutMs, defaultDeadlineMs, sleep, random, clock, unreachableTimeoutMs } = options;
  const caller = createRestCaller({
    baseUrl: endpoint,
    auth: basicAuth(options.username, options.password),
    headers: { "X-Cycle-Client-Version": "clusterform:0.0.0" },
    callTimeoutMs,
    defaultDeadlineMs,
    sleep,
    random,
    clock,
    unreachableTimeoutMs,
  });
  const named = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      if (err instanceof ClusterformError) throw withAddress(err, endpoint);
      throw err;
    }
  };
  const read = <T>(operation: string, request: RestRequest, o?: RestCallOptions) =>
    named(async () => (await caller.retried<T>(operation, request, o)).body);
  const accepted = async <T extends { operationId: string }>(send: () => Promise<RestResponse<T>>): Promise<Accepted<T>> => {
    const response = await named(send);
    return { value: response.body, location: locationOf(response, response.body.operationId) };
  };

  return {
    endpoint,
    createNodes(cluster, request, o) {
      const arrays = request.sets.map((s) => q(s.nodearray)).join(", ");
      const operation = `CreateNodes nodearray ${arrays} of cluster ${q(cluster)}`;
      const http: RestRequest = { method: "POST", path: `/clusters/${seg(cluster)}/nodes/create`, body: request };
      // With a requestId a repeat cannot add nodes twice (CycleCloud answers 409), so a lost reply
      // may be asked again; the caller reads that 409 as "already asked". Without one, once.
      return accepted(() => (request.requestId === undefined ? caller.once<NodeCreationResult>(operation, http, o) : caller.retried<NodeCreationResult>(operation, http, o)));
    },
    manageNodes(cluster, action, request, o) {
      const operation = `${action[0].toUpperCase()}${action.slice(1)}Nodes of cluster ${q(cluster)}`;
      const http: RestRequest = { method: "POST", path: `/clusters/${seg(cluster)}/nodes/${action}`, body: request };
      // Selecting nodes again is harmless; a repeated requestId is not (409), so those go once.
      const send = () =>
        request.requestId === undefined
          ? caller.retried<NodeManagementResult>(operation, http, o, goneOnRetryHook)
          : caller.once<NodeManagementResult>(operation, http, o);
      return accepted(send);
    },
    scaleNodearray(cluster, nodearray, total, o) {
      const operation = `ScaleNodearray nodearray ${q(nodearray)} of cluster ${q(cluster)}`;
      return accepted(() =>
        caller.once<NodeCreationResult>(operation, { method: "POST", path: `/clusters/${seg(cluster)}/scale/${seg(nodearray)}`, query: total }, o),
      );
    },
    listNodes(cluster, query, o) {
      const operation = `GetNodes${describeQuery(query)} of cluster ${q(cluster)}`;
      return read<NodeList>(operation, { method: "GET", path: `/clusters/${seg(cluster)}/nodes`, query: querySelector(query) }, o);
    },
    getClusterStatus(cluster, withNodes = false, o) {
      return read<ClusterStatus>(`GetClusterStatus cluster ${q(cluster)}`, { method: "GET", path: `/clusters/${seg(cluster)}/status`, query: { nodes: withNodes } }, o);
    },
    getOperation(id, o) {
      return read<OperationStatus>(`GetOperation ${q(id)}`, { method: "GET", path: `/operations/${seg(id)}` }, o);
    },
    findOperationsByRequestId(requestId, o) {
      return read<OperationStatus[]>(`ListOperations of request ${q(requestId)}`, { method: "GET", path: "/operations/", query: { request_id: requestId } }, o);
    },
  };
}

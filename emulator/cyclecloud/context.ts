import type { DatabaseSync } from "node:sqlite";
import { Code, ConnectError } from "@connectrpc/connect";
import type { CallContext, CallInfo } from "../calls";
import type { Clock } from "../clock";
import type { FaultRegistry } from "../faults";
import type { ClusterDefinition, NodearrayDefinition } from "./definitions";
import { settleNodes } from "./settle";
import type { CycleCloudStore } from "./store";

/** What the CycleCloud handlers share. */
export interface CycleCloudEnv {
  db: DatabaseSync;
  store: CycleCloudStore;
  clock: Clock;
  /** Multiplies every simulated duration. */
  timeScale: number;
  /** For the `fail-node` and `preempt-node` faults, consumed per node. */
  faults: FaultRegistry;
  /** The server's base URL, for `Location` headers. */
  baseUrl(): string;
}

/** One REST call as a handler sees it. */
export interface RestCall {
  /** The path parameters, in order (cluster, then nodearray or action). */
  params: readonly string[];
  query: URLSearchParams;
  /** The parsed JSON body; undefined when empty. */
  body: unknown;
  ctx: CallContext;
  /** The call's identity, for faults consumed per node. */
  info: CallInfo;
}

/** What a handler answers: a status, a JSON body and optional headers. */
export interface RestReply {
  status: number;
  body: unknown;
  /** Extra response headers. @default {} */
  headers?: Record<string, string>;
}

/** Invalid input: CycleCloud answers 409 on POST and 400 on GET. */
export function invalidInput(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}

/** A missing cluster, operation or request id: 404. */
export function notFound(message: string): ConnectError {
  return new ConnectError(message, Code.NotFound);
}

/** Applies due transitions, then reads the cluster named `name`; 404 if it is not defined. */
export function loadCluster(env: CycleCloudEnv, name: string): ClusterDefinition {
  settleNodes(env.db, env.store, env.clock.now());
  const cluster = env.store.findCluster(name);
  if (!cluster) throw notFound(`cluster "${name}" not found`);
  return cluster;
}

/** The nodearray of a cluster, if defined. */
export function findNodearray(cluster: ClusterDefinition, name: string): NodearrayDefinition | undefined {
  return cluster.nodearrays.find((n) => n.name === name);
}

/** A 202 reply for an accepted operation, with `Location` pointing at it. */
export function accepted(env: CycleCloudEnv, operationId: string, body: unknown): RestReply {
  return { status: 202, body, headers: { Location: `${env.baseUrl()}/operations/${operationId}` } };
}

/** Throws 409 when a request id was used before: CycleCloud ignores the repeated request. */
export function assertNewRequestId(env: CycleCloudEnv, requestId: string | undefined): void {
  if (requestId !== undefined && env.store.findOperationByRequestId(requestId)) {
    throw new ConnectError(`requestId "${requestId}" was already used; the request was ignored`, Code.AlreadyExists);
  }
}

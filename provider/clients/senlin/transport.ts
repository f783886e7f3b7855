import { ClusterformError } from "../../core/errors";
import { type AttemptHook, goneOnRetryHook, type RestCallOptions, type RestCaller, type RestRequest, type RestResponse } from "../shared/rest-caller";

/**
 * The microversion each feature needs (Senlin's API history). Every call sends the lowest version
 * that has what it uses, so the client works against the oldest server that can serve it.
 */
export const MICROVERSIONS = {
  base: "1.0",
  collectAttrs: "1.2",
  replaceNodes: "1.3",
  clusterOps: "1.4",
  destroyAfterDeletion: "1.4",
  profileOnly: "1.6",
  recoverCheck: "1.6",
  recoverCheckCapacity: "1.7",
  deleteForce: "1.8",
  actionCancel: "1.12",
  actionClusterIdFilter: "1.14",
} as const;

/** The newer of two microversions. */
export function newerVersion(a: string, b: string): string {
  const [am, an] = a.split(".").map(Number);
  const [bm, bn] = b.split(".").map(Number);
  return am > bm || (am === bm && an >= bn) ? a : b;
}

/** How a call is sent: retried when idempotent, once otherwise, retried with NotFound-on-retry as success for deletes. */
export type CallKind = "read" | "write" | "delete";

/** Senlin calls with the microversion header and a clear error when the server is too old. */
export interface SenlinTransport {
  call<T>(kind: CallKind, operation: string, request: RestRequest, version: string, options?: RestCallOptions): Promise<RestResponse<T>>;
}

/** The server's own maximum, from its 406 message (Senlin's "... maximum is '1.2'.", quoted or not). */
function serverMaximum(message: string): string | undefined {
  return /maximum is '?(\d+\.\d+)/.exec(message)?.[1];
}

/** A 406 means the server is older than the call: say which version it has and which the call needs. */
function tooOld(error: ClusterformError, version: string): ClusterformError {
  if (error.platformCode !== "HTTP 406") return error;
  const max = serverMaximum(error.platformMessage);
  return new ClusterformError({
    code: "FailedPrecondition",
    platformCode: error.platformCode,
    operation: error.operation,
    platformMessage: `this call needs Senlin API microversion ${version}, but the server supports ${max ? `at most ${max}` : "an older range"} (${error.platformMessage})`,
    cause: error,
  });
}

const HOOKS: Readonly<Record<CallKind, AttemptHook | undefined>> = { read: undefined, write: undefined, delete: goneOnRetryHook };

/**
 * Wraps a REST caller for Senlin.
 * @param serverMax - the newest microversion the server's version document names (undefined when
 *   it names none): a call needing a newer one fails before it is sent, as the real clients refuse it.
 */
export function createSenlinTransport(caller: RestCaller, serverMax: () => Promise<string | undefined> = async () => undefined): SenlinTransport {
  return {
    async call<T>(kind: CallKind, operation: string, request: RestRequest, version: string, options?: RestCallOptions) {
      const max = await serverMax();
      if (max !== undefined && newerVersion(version, max) === version && version !== max) {
        throw new ClusterformError({
          code: "FailedPrecondition",
          platformCode: "MICROVERSION",
          operation,
          platformMessage: `this call needs Senlin API microversion ${version}, but the server supports at most ${max} (its version document's max_version)`,
        });
      }
      const withVersion = { ...request, headers: { ...request.headers, "OpenStack-API-Version": `clustering ${version}` } };
      try {
        if (kind === "write") return await caller.once<T>(operation, withVersion, options);
        return await caller.retried<T>(operation, withVersion, options, HOOKS[kind]);
      } catch (err) {
        throw tooOld(ClusterformError.from(err, operation), version);
      }
    },
  };
}

/** The action id of an accepted request: the last segment of `Location` (as openstacksdk reads it), else the body's `action`. */
export function actionIdOf(response: RestResponse<unknown>): string {
  const location = response.headers.get("location");
  if (location) return location.replace(/\/+$/, "").split("/").pop() ?? "";
  const body = response.body as { action?: unknown } | undefined;
  return typeof body?.action === "string" ? body.action : "";
}

import { Code, ConnectError } from "@connectrpc/connect";

const JOBS = "peloton.api.v1alpha.job.stateless.svc.JobService";
const RESPOOLS = "peloton.api.v1alpha.respool.ResourcePoolService";
/** The v0 respool service's wire name (upstream strips "v0." from its procedure names). */
const RESPOOLS_V0 = "peloton.api.respool.ResourceManager";

/** The dispatcher names a client may put in `rpc-service`, and the gRPC services each serves here. */
export const DISPATCHERS: Readonly<Record<string, readonly string[]>> = {
  // The API server forwards every service; jobmgr and resmgr serve their own.
  "peloton-apiserver": [JOBS, RESPOOLS, RESPOOLS_V0],
  "peloton-jobmgr": [JOBS],
  "peloton-resmgr": [RESPOOLS, RESPOOLS_V0],
};

/** The YARPC request metadata of a gRPC call. */
export interface YarpcMetadata {
  caller: string;
  service: string;
  encoding: string;
}

/**
 * Reads the YARPC metadata as YARPC's gRPC inbound does: `rpc-encoding` may be left out only when
 * the content type names it (`application/grpc+proto`).
 */
export function readYarpcMetadata(headers: Headers): YarpcMetadata {
  const contentType = headers.get("content-type") ?? "";
  const subtype = /^application\/grpc\+([^;\s]+)/.exec(contentType)?.[1] ?? "";
  return {
    caller: headers.get("rpc-caller") ?? "",
    service: headers.get("rpc-service") ?? "",
    encoding: headers.get("rpc-encoding") || subtype,
  };
}

/**
 * Checks a call's metadata and routing as the YARPC inbound and router do: INVALID_ARGUMENT naming
 * what is missing, UNIMPLEMENTED for a dispatcher this address does not serve or a procedure the
 * named dispatcher does not have, and INVALID_ARGUMENT "missing TTL" for a unary call without a
 * deadline.
 */
export function assertYarpcCall(meta: YarpcMetadata, serviceName: string, method: string, hasDeadline: boolean): void {
  const missing = [
    ["service name", meta.service],
    ["caller name", meta.caller],
    ["encoding", meta.encoding],
  ].flatMap(([what, value]) => (value === "" ? [what] : []));
  if (missing.length > 0) throw new ConnectError(`missing ${missing.join(", ")}`, Code.InvalidArgument);
  const served = DISPATCHERS[meta.service];
  if (!served) {
    const available = Object.keys(DISPATCHERS).map((s) => JSON.stringify(s)).join(", ");
    throw new ConnectError(`unrecognized service name ${JSON.stringify(meta.service)}, available services: ${available}`, Code.Unimplemented);
  }
  if (!served.includes(serviceName)) {
    throw new ConnectError(`unrecognized procedure "${serviceName}::${method}" for service ${JSON.stringify(meta.service)}`, Code.Unimplemented);
  }
  if (!hasDeadline) throw new ConnectError("missing TTL", Code.InvalidArgument);
}

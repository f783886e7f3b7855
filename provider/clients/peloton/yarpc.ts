import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { ClusterformError } from "../../core/errors";

/** The YARPC metadata every call carries; YARPC's gRPC inbound refuses calls without it. */
export interface YarpcIdentity {
  /** `rpc-caller`: who calls. @default "clusterform" */
  caller?: string;
  /**
   * `rpc-service`: the dispatcher addressed: `peloton-apiserver` (forwards every service),
   * `peloton-jobmgr` or `peloton-resmgr`. @default "peloton-apiserver"
   */
  service?: string;
}

/** Adds `rpc-caller`, `rpc-service` and `rpc-encoding: proto` to every request. */
export function yarpcInterceptor(identity: YarpcIdentity = {}): Interceptor {
  const headers = {
    "rpc-caller": identity.caller ?? "clusterform",
    "rpc-service": identity.service ?? "peloton-apiserver",
    "rpc-encoding": "proto",
  };
  return (next) => (req) => {
    for (const [key, value] of Object.entries(headers)) req.header.set(key, value);
    return next(req);
  };
}

/**
 * Turns "this server has no such service" (a YARPC `unrecognized procedure`, a gRPC `unknown
 * service`, an HTTP 404) on a v1alpha ResourcePoolService call into an error that says why: real
 * Peloton resource managers serve only the v0 API. Anything else passes through.
 */
export function explainMissingRespoolService(err: unknown, operation: string, endpoint: string): unknown {
  if (!(err instanceof ConnectError) || err.code !== Code.Unimplemented) return err;
  return new ClusterformError({
    code: "FailedPrecondition",
    platformCode: "UNIMPLEMENTED",
    operation,
    platformMessage:
      `the Peloton server at ${endpoint} does not serve peloton.api.v1alpha.respool.ResourcePoolService: ` +
      "real Peloton resource managers serve only the v0 API (peloton.api.v0.respool.ResourceManager), " +
      `so manage resource pools with the Peloton CLI or point the endpoint at a server that serves v1alpha (server said: ${err.rawMessage})`,
    cause: err,
  });
}

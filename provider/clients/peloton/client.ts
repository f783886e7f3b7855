import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { JobService } from "../../../proto/gen/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb";
import { ResourcePoolService } from "../../../proto/gen/peloton/api/v1alpha/respool/svc/respool_svc_pb";
import { type CallerOptions, createCaller } from "../shared/grpc-caller";
import { type JobMethods, jobMethods } from "./job-methods";
import { type RespoolMethods, respoolMethods } from "./respool-methods";
import { type YarpcIdentity, yarpcInterceptor } from "./yarpc";

export type { CallOptions } from "../shared/grpc-caller";

/** Options of {@link createPelotonClient}. */
export interface PelotonClientOptions extends CallerOptions, YarpcIdentity {
  /**
   * The Peloton gRPC endpoint: the API server (default port 5397) or a job manager (5392), e.g.
   * `http://127.0.0.1:5397` (h2c) or an https:// URL.
   */
  endpoint: string;
}

/**
 * Peloton v1alpha JobService and ResourcePoolService over gRPC. Every call carries the YARPC
 * metadata (`rpc-caller`, `rpc-service`, `rpc-encoding`) and a deadline, as YARPC requires; errors
 * are ClusterformErrors naming the call and the job or pool.
 */
export interface PelotonClient extends JobMethods, RespoolMethods {
  /** The endpoint this client talks to. */
  readonly endpoint: string;
  /** Closes the HTTP/2 connection; later calls open a new one. */
  close(): void;
}

/** Creates a Peloton client: h2c with prior knowledge for http://, TLS with ALPN for https://. */
export function createPelotonClient(options: PelotonClientOptions): PelotonClient {
  const sessionManager = new Http2SessionManager(options.endpoint);
  const transport = createGrpcTransport({ baseUrl: options.endpoint, sessionManager, interceptors: [yarpcInterceptor(options)] });
  const caller = createCaller(options);
  return {
    endpoint: options.endpoint,
    ...jobMethods(createClient(JobService, transport), caller),
    ...respoolMethods(createClient(ResourcePoolService, transport), caller, options.endpoint),
    close: () => sessionManager.abort(),
  };
}

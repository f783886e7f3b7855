import { type Client, Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { JobService } from "../../proto/gen/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb";
import { ResourcePoolService } from "../../proto/gen/peloton/api/v1alpha/respool/svc/respool_svc_pb";

/** The YARPC metadata the Peloton CLI sends through the API server. */
export const YARPC_HEADERS: Readonly<Record<string, string>> = {
  "rpc-caller": "peloton-cli",
  "rpc-service": "peloton-apiserver",
  "rpc-encoding": "proto",
};

/** Raw gRPC clients of both Peloton services, for emulator tests. */
export interface PelotonTestClients {
  jobs: Client<typeof JobService>;
  respools: Client<typeof ResourcePoolService>;
}

/**
 * Clients that send `headers` on every call and a deadline (YARPC refuses unary calls without one).
 * @param headers - @default YARPC_HEADERS
 */
export function pelotonClients(baseUrl: string, headers: Readonly<Record<string, string>> = YARPC_HEADERS): PelotonTestClients {
  const withHeaders: Interceptor = (next) => (req) => {
    for (const [key, value] of Object.entries(headers)) req.header.set(key, value);
    return next(req);
  };
  const transport = createGrpcTransport({ baseUrl, interceptors: [withHeaders], defaultTimeoutMs: 10_000 });
  return { jobs: createClient(JobService, transport), respools: createClient(ResourcePoolService, transport) };
}

/** The code and message a call fails with, or "OK". */
export async function outcomeOf(call: Promise<unknown>): Promise<"OK" | { code: string; message: string }> {
  try {
    await call;
    return "OK";
  } catch (error) {
    const e = ConnectError.from(error);
    return { code: Code[e.code], message: e.rawMessage };
  }
}

/** A pool spec with `cpu` and `memory` limits (reservation half the limit). */
export function poolSpec(name: string, cpu: number, memoryMb: number, parent?: string) {
  return {
    name,
    parent: parent ? { value: parent } : undefined,
    resources: [
      { kind: "cpu", reservation: cpu / 2, limit: cpu },
      { kind: "memory", reservation: memoryMb / 2, limit: memoryMb },
    ],
  };
}

/** A stateless job spec of `instanceCount` pods with one container of `cpu` cores and 128 MB. */
export function jobSpec(name: string, respoolId: string, instanceCount: number, cpu = 1, image = "nginx:1.25") {
  return {
    name,
    owner: "team-a",
    respoolId: { value: respoolId },
    instanceCount,
    defaultSpec: {
      containers: [
        {
          name: "web",
          resource: { cpuLimit: cpu, memLimitMb: 128 },
          container: { type: 1, docker: { image } },
          command: { value: "serve" },
        },
      ],
    },
  };
}

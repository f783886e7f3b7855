import { setTimeout as sleep } from "node:timers/promises";
import { Code, ConnectError } from "@connectrpc/connect";
import type { AuditLog } from "./audit";
import type { Clock } from "./clock";
import { resetCurrentConnection } from "./connection-reset";
import { type CallIdentity, type Fault, type FaultRegistry, faultCode } from "./faults";
import { type GrpcCodeName, grpcCodeName } from "./grpc-codes";

/** One received API call, as the audit log and the fault matcher see it. */
export interface CallInfo extends CallIdentity {
  requestId: string;
  /** The request body as JSON, for the audit log (secrets are redacted there). @default none */
  request?: unknown;
}

/** What a handler may ask of the pipeline while it runs. */
export interface CallContext {
  /** The failure message if a "fail-operation" fault matches this call (consuming it), else undefined. */
  takeOperationFailure(): string | undefined;
}

/**
 * Runs one API call through faults and the audit log. gRPC and REST both go through it, so each
 * RPC has one implementation.
 */
export type CallPipeline = <T>(info: CallInfo, handler: (ctx: CallContext) => T | Promise<T>) => Promise<T>;

/** Dependencies of the call pipeline. */
export interface CallPipelineDeps {
  audit: AuditLog;
  faults: FaultRegistry;
  clock: Clock;
}

/**
 * Drops the connection of the current request for a "reset" fault. The call is audited as
 * UNAVAILABLE, the code gRPC clients report a lost connection with; the thrown error only ends the
 * handling, since there is nobody left to answer.
 */
function dropConnection(fault: Fault): never {
  const dropped = resetCurrentConnection();
  const what = fault.stage === "response" ? "after handling the call" : "before handling the call";
  throw new ConnectError(`simulated connection reset ${what}${dropped ? "" : " (no connection to drop)"}`, Code.Unavailable);
}

/**
 * Creates the pipeline: latency, then delay faults, then error faults and request-stage resets (before any state
 * change), then the handler, then response-stage resets (the change is made, the answer lost).
 */
export function createCallPipeline({ audit, faults, clock }: CallPipelineDeps): CallPipeline {
  return async (info, handler) => {
    const time = new Date(clock.now()).toISOString();
    let code: GrpcCodeName = "OK";
    try {
      const latency = faults.latencyMs(info);
      if (latency > 0) await sleep(latency);
      const delay = faults.take(info, "delay");
      if (delay) await sleep(delay.delayMs ?? 0);
      const error = faults.take(info, "error");
      if (error) throw new ConnectError(error.message ?? `simulated ${error.code} fault`, faultCode(error));
      const reset = faults.take(info, "reset");
      if (reset && reset.stage !== "response") dropConnection(reset);
      const result = await handler({ takeOperationFailure: () => faults.take(info, "fail-operation")?.message });
      if (reset) dropConnection(reset);
      return result;
    } catch (cause) {
      const error = ConnectError.from(cause);
      code = grpcCodeName(error.code);
      throw error;
    } finally {
      const { api, operation, target, requestId, request } = info;
      audit.record({ time, api, operation, target, requestId, code, request });
    }
  };
}

import { setTimeout as sleep } from "node:timers/promises";
import { ConnectError } from "@connectrpc/connect";
import type { AuditLog } from "./audit";
import type { Clock } from "./clock";
import { type CallIdentity, type FaultRegistry, faultCode } from "./faults";
import { type GrpcCodeName, grpcCodeName } from "./grpc-codes";

/** One received API call, as the audit log and the fault matcher see it. */
export interface CallInfo extends CallIdentity {
  requestId: string;
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

/** Creates the pipeline: delay faults, then error faults (before any state change), then the handler. */
export function createCallPipeline({ audit, faults, clock }: CallPipelineDeps): CallPipeline {
  return async (info, handler) => {
    const time = new Date(clock.now()).toISOString();
    let code: GrpcCodeName = "OK";
    try {
      const delay = faults.take(info, "delay");
      if (delay) await sleep(delay.delayMs ?? 0);
      const error = faults.take(info, "error");
      if (error) throw new ConnectError(error.message ?? `simulated ${error.code} fault`, faultCode(error));
      return await handler({ takeOperationFailure: () => faults.take(info, "fail-operation")?.message });
    } catch (cause) {
      const error = ConnectError.from(cause);
      code = grpcCodeName(error.code);
      throw error;
    } finally {
      const { api, operation, target, requestId } = info;
      audit.record({ time, api, operation, target, requestId, code });
    }
  };
}

import type { DescMethodServerStreaming, DescMethodUnary, DescService, MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import type { CallContext } from "../calls";

/**
 * One implementation per RPC of a service, synchronous (SQLite is): a unary RPC answers one
 * message, a server-streaming one the messages it streams.
 */
export type ServiceHandlers<S extends DescService> = {
  [K in keyof S["method"]]: S["method"][K] extends DescMethodServerStreaming<infer I, infer O>
    ? (request: MessageShape<I>, ctx: CallContext) => MessageInitShape<O>[]
    : S["method"][K] extends DescMethodUnary<infer I, infer O>
      ? (request: MessageShape<I>, ctx: CallContext) => MessageInitShape<O>
      : never;
};

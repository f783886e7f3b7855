import type { Code } from "@connectrpc/connect";

/** gRPC status code names as written in the gRPC spec, indexed by numeric code. */
const CODE_NAMES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
] as const;

/** A gRPC status code name such as `"NOT_FOUND"`. */
export type GrpcCodeName = (typeof CODE_NAMES)[number];

/** HTTP status per gRPC code, as grpc-gateway v1 `HTTPStatusFromCode` maps them (index = code). */
const HTTP_STATUS_BY_CODE = [200, 408, 500, 400, 504, 404, 409, 403, 429, 412, 409, 400, 501, 500, 503, 500, 401];

/** The name of a numeric gRPC code (`5` -> `"NOT_FOUND"`). */
export function grpcCodeName(code: number): GrpcCodeName {
  return CODE_NAMES[code] ?? "UNKNOWN";
}

/** The error code for a name, or undefined for `"OK"` and names that are not gRPC codes. */
export function parseErrorCode(name: string): Code | undefined {
  const index = CODE_NAMES.indexOf(name as GrpcCodeName);
  return index > 0 ? (index as Code) : undefined;
}

/** The gRPC code names that can describe an error (all but `"OK"`). */
export const ERROR_CODE_NAMES: readonly string[] = CODE_NAMES.slice(1);

/** The HTTP status grpc-gateway v1 answers for a gRPC code. */
export function httpStatusFromCode(code: number): number {
  return HTTP_STATUS_BY_CODE[code] ?? 500;
}

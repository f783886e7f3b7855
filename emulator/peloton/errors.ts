import { Code, ConnectError } from "@connectrpc/connect";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is an RFC 4122 UUID in its usual text form. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** INVALID_ARGUMENT with `message`. */
export function invalidArgument(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}

/** The NOT_FOUND the job manager answers for a missing job. */
export function jobNotFound(jobId: string): ConnectError {
  return new ConnectError(`job:${jobId} not found`, Code.NotFound);
}

/** The NOT_FOUND for a missing resource pool. */
export function respoolNotFound(what: string): ConnectError {
  return new ConnectError(`resource pool ${what} not found`, Code.NotFound);
}

/** The three counters of a job's entity version `<config>-<desiredState>-<workflow>`. */
export interface EntityVersionParts {
  configVersion: number;
  desiredStateVersion: number;
  workflowVersion: number;
}

/** Formats a job's entity version. */
export function formatEntityVersion(parts: EntityVersionParts): string {
  return `${parts.configVersion}-${parts.desiredStateVersion}-${parts.workflowVersion}`;
}

/** Parses a job entity version; INVALID_ARGUMENT as the job manager words it when malformed. */
export function parseEntityVersion(value: string): EntityVersionParts {
  const match = /^(\d+)-(\d+)-(\d+)$/.exec(value);
  if (!match) {
    throw invalidArgument(`entityVersion has wrong format: got ${JSON.stringify(value)}, expected "<config>-<desiredState>-<workflow>" such as "1-1-1"`);
  }
  return { configVersion: Number(match[1]), desiredStateVersion: Number(match[2]), workflowVersion: Number(match[3]) };
}

/** Throws ABORTED (re-read and retry) unless `given` is the job's current entity version. */
export function assertCurrentVersion(current: EntityVersionParts, given: string): void {
  const parsed = parseEntityVersion(given);
  if (formatEntityVersion(parsed) !== formatEntityVersion(current)) {
    throw new ConnectError(`unexpected entity version: got ${given}, current is ${formatEntityVersion(current)}`, Code.Aborted);
  }
}

import { Code, ConnectError } from "@connectrpc/connect";

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_LABEL_MAX_LENGTH = 63;

/** Whether `value` is a DNS-1123 label, the rule Kubernetes applies to namespace and object names. */
export function isDns1123Label(value: string): boolean {
  return value.length <= DNS1123_LABEL_MAX_LENGTH && DNS1123_LABEL.test(value);
}

/**
 * Throws INVALID_ARGUMENT unless `value` is a DNS-1123 label. cma-ssh names a namespace after the
 * cluster and a MachineSet after each pool, so Kubernetes would reject anything else.
 */
export function assertDns1123Label(what: string, value: string): void {
  if (isDns1123Label(value)) return;
  throw new ConnectError(
    `invalid ${what} ${JSON.stringify(value)}: must be a DNS-1123 label (1 to 63 lowercase letters, digits or '-', starting and ending with a letter or digit)`,
    Code.InvalidArgument,
  );
}

/** Throws INVALID_ARGUMENT when a node count is negative. */
export function assertNodeCount(what: string, count: number): void {
  if (count >= 0) return;
  throw new ConnectError(`invalid count ${count} for ${what}: must be 0 or more`, Code.InvalidArgument);
}

/**
 * Runs a create's checks and turns their INVALID_ARGUMENT into the INTERNAL the real server
 * answers for every failure to create (it hands the objects to Kubernetes, whose refusal it
 * reports as INTERNAL, contracts §1.5); the message still names the field and the value.
 */
export function asCreateFailure<T>(check: () => T): T {
  try {
    return check();
  } catch (cause) {
    const error = ConnectError.from(cause);
    if (error.code !== Code.InvalidArgument) throw error;
    throw new ConnectError(error.rawMessage, Code.Internal);
  }
}

/** Throws the INTERNAL error the real server returns when a Kubernetes object already exists. */
export function alreadyExists(kind: string, name: string): ConnectError {
  return new ConnectError(`${kind} "${name}" already exists`, Code.Internal);
}

/** The NOT_FOUND error for a missing cluster or pool. */
export function notFound(kind: string, name: string): ConnectError {
  return new ConnectError(`${kind} "${name}" not found`, Code.NotFound);
}

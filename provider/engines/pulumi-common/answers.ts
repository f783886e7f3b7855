import { PartialStateError, type Props } from "../../core/contract";
import type { CheckFailure } from "../../core/validation";

/**
 * Pulumi prints a failure as `property <p> value {<inputs[p]>} has a problem: <reason>`, looking
 * `p` up among the top-level inputs only: a nested path prints `value {<nil>}`. Nested failures
 * therefore go without a property (`resource 'x' has a problem: <reason>`); their reasons name the
 * whole path and the value received.
 */
export function forEngine(failure: CheckFailure): CheckFailure {
  return /[.[]/.test(failure.property) ? { property: "", reason: failure.reason } : failure;
}

/**
 * The error Pulumi's providers turn into "created but failed to initialize": the engine records the
 * object with the error's `properties` (so a later update or delete can run) and retries on the next
 * `up` (pulumi/pulumi#18009). `extra` is what the engine's state must keep besides (the dynamic
 * provider's `__provider`); `outward` renames the properties into the engine's names.
 */
export function partialStateForEngine(err: unknown, extra: Props = {}, outward: (props: Props) => Props = (p) => p): unknown {
  if (!(err instanceof PartialStateError)) return err;
  return new PartialStateError(err.message, err.id, outward({ ...err.properties, ...extra }), err.reasons);
}

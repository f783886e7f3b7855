import { resolveUnreachableTimeoutMs } from "../../core/config";
import type { OperationContext } from "../../core/contract";
import { sendUnlessDone } from "../../core/create-or-adopt";
import type { Deadline } from "../../core/deadline";
import { ClusterformError } from "../../core/errors";

// The create, update and delete steps profiles and policies share: both creates are one synchronous
// call that Senlin gives no idempotency key, both updates one PATCH of given values, and both
// deletes are refused while a cluster uses the object.

/** A lookup's filter arguments that are set, as Senlin's list query takes them. */
export function senlinFilters(args: Record<string, unknown>, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => typeof args[k] === "string").map((k) => [k, String(args[k])]));
}

/** NotFound as undefined. */
export async function orMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ClusterformError && err.code === "NotFound") return undefined;
    throw err;
  }
}

/**
 * The object to adopt among those of this resource (its marker or derived name, and the same spec):
 * one nothing uses, or, when the engine records states late (`adoptInUse`: core/engine.ts
 * recordsStateAtEnd), one in use too. A kind's create passes its `find` to the core's createOrAdopt
 * with `adoption: "self"`, for these reasons.
 *
 * Why `find` may adopt with either replacement order: it answers only objects of this resource
 * that nothing uses. An object a cluster uses was recorded in a state before the cluster could
 * learn its id (Pulumi saves a step before dependents run), so it is the object a `pulumi up
 * --replace` replaces, never an interrupted create's leftover; an unused one is the leftover. The
 * generic guard (replacement.ts) cannot adopt a fresh create-first object at all, and create-first
 * is these kinds' default. An unused object may still be the one a `pulumi up --replace` replaces
 * (nothing uses it): `ctx.adopting` tells the core, which then keeps the engine's delete of that
 * same object from running.
 */
export function leftoverAmong<T extends { id: string }>(ours: readonly T[], used: ReadonlySet<string>, adoptInUse: boolean): T | undefined {
  return ours.find((o) => !used.has(o.id)) ?? (adoptInUse ? ours[0] : undefined);
}

/**
 * Deletes an object, gone counting as deleted. Senlin's "in use" refusal (409) becomes an error that
 * says why and what to do; the object stays, and so does the state.
 */
export async function deleteUnlessGone(what: string, users: string, remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (err) {
    if (err instanceof ClusterformError && err.code === "NotFound") return;
    if (err instanceof ClusterformError && err.code === "Conflict") {
      throw new ClusterformError({
        code: "Conflict",
        platformCode: err.platformCode,
        operation: err.operation,
        platformMessage:
          `${err.platformMessage} (Senlin refuses to delete a ${what} while ${users}; nothing was deleted. Move the clusters to ` +
          `another ${what} first, or, when replacing it, leave deleteBeforeReplace unset or false so that the new ${what} ` +
          "is created and the clusters switch to it before the old one is deleted)",
      });
    }
    throw err;
  }
}


/** Senlin's answer to a PATCH that changes nothing: the object already is as asked. */
const NOTHING_TO_UPDATE = /no property needs an update/i;

/**
 * Sends a profile's or policy's PATCH until it is done. A PATCH sets given values, so one whose
 * answer was lost (a reset, an answer past the call timeout) is sent again by the call policy
 * (core/create-or-adopt.ts sendUnlessDone) and ends the same. Senlin refuses a PATCH that changes
 * nothing: that refusal means the values are there already (an earlier send landed, or that of an
 * interrupted run), and answers undefined.
 */
export async function patchUnlessDone<T>(
  ctx: OperationContext,
  operation: string,
  deadline: Deadline,
  patch: () => Promise<T>,
): Promise<T | undefined> {
  return sendUnlessDone({
    operation,
    deadline,
    async send() {
      try {
        return await patch();
      } catch (err) {
        if (err instanceof ClusterformError && err.code === "InvalidArgument" && NOTHING_TO_UPDATE.test(err.platformMessage)) return undefined;
        throw err;
      }
    },
    progress: (message) => ctx.report.progress(message),
    unreachableMs: resolveUnreachableTimeoutMs(ctx.config),
  });
}

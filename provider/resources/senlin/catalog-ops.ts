import type { Deadline } from "../../core/deadline";
import { ClusterformError, isLostAnswer } from "../../core/errors";
import { backoffDelayMs, realSleep } from "../../core/retry";

// The create and delete steps profiles and policies share: both are one synchronous call that Senlin
// gives no idempotency key, and both are refused while a cluster uses the object.

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
 * Creates an object or adopts the one an interrupted run made. The create is never simply resent
 * after a transient failure (its answer may have been lost after the object was made): `find` looks
 * first, and an object found after a send is the one that send made.
 * @param adopt - called with the found object before adopting it when nothing was sent in this call.
 */
export async function createOrAdopt<T extends { id: string }>(
  operation: string,
  deadline: Deadline,
  find: () => Promise<T | undefined>,
  create: () => Promise<T>,
  adopt: (found: T) => void,
  progress?: (message: string) => void,
): Promise<T> {
  let sent = false;
  for (let attempt = 0; ; attempt++) {
    const found = await find();
    if (found) {
      if (!sent) adopt(found);
      return found;
    }
    try {
      sent = true;
      return await create();
    } catch (err) {
      if (!isLostAnswer(err) || deadline.expired()) throw err;
      progress?.(`${operation}: a transient failure (${err instanceof ClusterformError ? err.platformMessage : String(err)}); looking for the object before trying again`);
      await realSleep(Math.min(backoffDelayMs(Math.min(attempt, 6)), deadline.remainingMs()));
    }
  }
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

/**
 * Confirms adopting a found object of the same spec, or explains the refusal for a kind whose
 * objects never change: a create-first replacement with the same spec (`pulumi up --replace`) would
 * make an identical object, and create cannot tell the object being replaced from an interrupted
 * run's leftovers. Nothing has been changed when this throws.
 */
export function confirmSameSpec(confirm: () => void, operation: string, what: "profile" | "policy", id: string): void {
  try {
    confirm();
  } catch (err) {
    throw new ClusterformError({
      code: "AlreadyExists",
      platformCode: "EXISTS",
      operation,
      platformMessage:
        `this resource's ${what} ${id} with the same spec already exists and may be the one being replaced; Senlin ${what}s ` +
        `never change, so a new one with the same spec would do the same. Nothing was changed. Change \`spec\` to roll out a ` +
        `new ${what}; to replace this one anyway, give it \`deleteBeforeReplace: true\` (the old one is deleted first, which ` +
        `Senlin allows only while no cluster uses it) (${err instanceof Error ? err.message : String(err)})`,
    });
  }
}

import { inDynamicProviderHost } from "../pulumi-common/engine-log";

/**
 * Pulumi's dynamic provider host prints every error thrown by check, diff, read and delete to
 * stderr with its stack (`${err}: ${err.stack}`) and then also returns it to the engine, which
 * shows it on the resource: the user sees the message twice, once with a stack trace
 * (@pulumi/pulumi cmd/dynamic-provider). The engine's copy is the useful one, so inside that host
 * the stderr copy of an error that passed through {@link reportedOnce} is dropped.
 */
const pending = new Set<string>();
let installed = false;

function installFilter(): void {
  installed = true;
  if (!inDynamicProviderHost()) return;
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const first = args[0];
    if (typeof first === "string") {
      for (const text of pending) {
        if (!first.startsWith(text)) continue;
        pending.delete(text);
        return;
      }
    }
    original(...args);
  };
}

/** Runs `fn`; an error it throws is reported to the user once, by the engine. */
export async function reportedOnce<T>(fn: () => Promise<T>): Promise<T> {
  if (!installed) installFilter();
  try {
    return await fn();
  } catch (err) {
    pending.add(String(err));
    throw err;
  }
}

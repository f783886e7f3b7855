/**
 * What of an action's lifecycle both servers are sure to show a client that polls it.
 *
 * The runner records the statuses an action was seen in while it was polled until its end (every
 * 250 ms, repeats collapsed). A status that lasts less than a poll may be missed on either server,
 * so the sequences are not compared as they are: on the real Senlin 14 a cluster action runs for
 * milliseconds before it makes its node actions and waits for them, is READY as briefly before an
 * engine picks it up and after its node actions ended, and an action without node work may end
 * before the first poll. What is compared:
 * - the order: the statuses seen come in Senlin's order (INIT or READY while queued, RUNNING,
 *   WAITING for node actions and READY again once they ended, WAITING again for a next batch, the
 *   end last); a sequence in another order is compared as `out of order: <the statuses seen>`;
 * - whether the action waited for node actions: WAITING seen, or READY after RUNNING or WAITING.
 *   The real server's parent actions wait seconds (their nodes' work, rechecked every 3 s); the
 *   plane's wait through most of their run (emulator/senlin/lifecycle.ts), at least 800 ms at the
 *   parity test's time scale 1, so neither is missed;
 * - the end status.
 */
export function comparableLifecycle(seen: readonly string[]): string[] {
  if (!IN_ORDER.test(seen.join(" "))) return [`out of order: ${seen.join(" ")}`];
  const started = seen.findIndex((s) => s === "RUNNING" || s === "WAITING");
  const waited = seen.includes("WAITING") || (started >= 0 && seen.slice(started + 1).includes("READY"));
  return [...(waited ? ["WAITING"] : []), seen.at(-1)!];
}

/** Senlin's order of action statuses, as a client polling an action may see it (repeats collapsed). */
const IN_ORDER = /^(INIT )?(READY )?(RUNNING )?((WAITING )?READY |WAITING )*(SUCCEEDED|FAILED|CANCELLED)$/;

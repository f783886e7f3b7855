import { ClusterformError } from "./errors";

/** Milliseconds per duration unit. `ms` is listed before `m` so the longer unit matches first. */
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

const TERM = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;

/**
 * Parses a duration such as `90s`, `20m`, `1h30m` or `500ms` into milliseconds.
 * @throws Error naming the text and the accepted form when it is not a duration.
 */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (trimmed === "") throw new Error(durationHelp(text));
  TERM.lastIndex = 0;
  let total = 0;
  while (TERM.lastIndex < trimmed.length) {
    const match = TERM.exec(trimmed);
    if (!match) throw new Error(durationHelp(text));
    total += Number(match[1]) * UNIT_MS[match[2]];
  }
  return Math.round(total);
}

/** True when `text` parses as a duration. */
export function isDuration(text: string): boolean {
  try {
    parseDuration(text);
    return true;
  } catch {
    return false;
  }
}

function durationHelp(text: string): string {
  return `invalid duration ${JSON.stringify(text)}: expected numbers with units ms, s, m or h, such as "90s", "20m", "1h30m" or "500ms"`;
}

/** Formats milliseconds the way {@link parseDuration} reads them back, e.g. `1h30m`, `1m30s`, `250ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))}ms`;
  let rest = Math.round(ms / 1_000);
  const parts: string[] = [];
  for (const [unit, size] of [["h", 3600], ["m", 60], ["s", 1]] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n}${unit}`);
  }
  return parts.join("");
}

/** A clock returning milliseconds since an arbitrary origin. */
export type Clock = () => number;

/**
 * The time an operation may take, fixed when the operation starts. Retries and waits ask it how
 * long is left instead of keeping their own timers.
 */
export class Deadline {
  /** When the deadline started, on its clock. */
  readonly startedAtMs: number;

  /**
   * @param timeoutMs - how long from now the deadline lies.
   * @param clock - the time source. @default Date.now
   */
  constructor(
    readonly timeoutMs: number,
    private readonly clock: Clock = Date.now,
  ) {
    if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
      throw new Error(`deadline timeout must be a non-negative number of milliseconds, got ${timeoutMs}`);
    }
    this.startedAtMs = clock();
  }

  /** A deadline `timeout` (a duration string such as `20m`) from now. */
  static fromDuration(timeout: string, clock: Clock = Date.now): Deadline {
    return new Deadline(parseDuration(timeout), clock);
  }

  /** The current time on this deadline's clock. */
  now(): number {
    return this.clock();
  }

  /** Milliseconds since the deadline started. */
  elapsedMs(): number {
    return this.clock() - this.startedAtMs;
  }

  /** Milliseconds left, never negative. */
  remainingMs(): number {
    return Math.max(0, this.timeoutMs - this.elapsedMs());
  }

  /** True once no time is left. */
  expired(): boolean {
    return this.remainingMs() <= 0;
  }

  /**
   * The DeadlineExceeded error for this deadline.
   * @param what - what was awaited, e.g. `waiting for cluster "prod" to be RUNNING`.
   * @param detail - what was seen last. @default undefined
   */
  exceeded(what: string, detail?: string, cause?: unknown): ClusterformError {
    const suffix = detail ? `; ${detail}` : "";
    return new ClusterformError({
      code: "DeadlineExceeded",
      platformCode: "TIMEOUT",
      operation: what,
      platformMessage: `not done after ${formatDuration(this.elapsedMs())} (timeout ${formatDuration(this.timeoutMs)})${suffix}`,
      cause,
      ownDeadline: true,
    });
  }

  /** Throws {@link Deadline.exceeded} when no time is left. */
  throwIfExpired(what: string, detail?: string): void {
    if (this.expired()) throw this.exceeded(what, detail);
  }
}

type Operation = "create" | "update" | "delete";

/**
 * The inputs an operation runs with, its time limit combined from two sources: the resource's
 * `timeouts` input and the engine's own limit for the operation (Pulumi's `customTimeouts`). When
 * both are set the smaller wins; when only the engine's is set it replaces the kind's default; when
 * neither is set the kind's default applies. The stored `timeouts` stay the user's.
 */
export function effectiveTimeouts(props: Record<string, unknown>, operation: Operation, engineSeconds: number | undefined): Record<string, unknown> {
  if (!(engineSeconds !== undefined && engineSeconds > 0)) return props;
  const engineMs = Math.round(engineSeconds * 1000);
  const own = (props.timeouts ?? {}) as Partial<Record<Operation, string>>;
  const ownValue = own[operation];
  let ownMs: number | undefined;
  try {
    ownMs = typeof ownValue === "string" ? parseDuration(ownValue) : undefined;
  } catch {
    ownMs = undefined;
  }
  const ms = ownMs === undefined ? engineMs : Math.min(ownMs, engineMs);
  return { ...props, timeouts: { ...own, [operation]: formatDuration(ms) } };
}

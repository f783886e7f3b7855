/** What one fixed-concurrency load run measured. */
export interface LoadResult {
  /** Requests answered successfully within the window. */
  completed: number;
  /** Requests that failed (threw); a benchmark treats any as "could not measure". */
  errors: number;
  /** The first failure's message, to name what went wrong. */
  firstError?: string;
  /** Wall time from the first request sent to the last answer received. */
  elapsedMs: number;
  /** Successful requests per second of `elapsedMs`. */
  requestsPerSecond: number;
  /** Latency percentiles of the successful requests, milliseconds. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Options of {@link driveLoad}. */
export interface LoadOptions {
  /** Requests kept in flight at once: each worker sends its next request when its last one is answered. */
  concurrency: number;
  /** How long workers keep starting requests; the requests in flight at the end still count. */
  durationMs: number;
  /** Stop starting requests once this many were started. @default no limit */
  maxRequests?: number;
}

/** The `q`-quantile (0..1) of sorted values, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error("quantile of no values: the load run completed no request");
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

/**
 * Drives `send` with a fixed number of workers for a fixed time (a closed loop: a slow server gets
 * fewer requests, never a queue that grows). `send` receives the request's number and the worker's
 * index, so writes can vary their payload or pick an object per worker.
 */
export async function driveLoad(send: (n: number, worker: number) => Promise<unknown>, opts: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const start = performance.now();
  const stopAt = start + opts.durationMs;
  const worker = async (index: number): Promise<void> => {
    while (performance.now() < stopAt && next < (opts.maxRequests ?? Number.POSITIVE_INFINITY)) {
      const n = next++;
      const sent = performance.now();
      try {
        await send(n, index);
        latencies.push(performance.now() - sent);
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, (_, i) => worker(i)));
  const elapsedMs = performance.now() - start;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    completed: sorted.length,
    errors,
    firstError,
    elapsedMs,
    requestsPerSecond: sorted.length / (elapsedMs / 1000),
    p50Ms: sorted.length > 0 ? quantile(sorted, 0.5) : Number.NaN,
    p99Ms: sorted.length > 0 ? quantile(sorted, 0.99) : Number.NaN,
    maxMs: sorted.at(-1) ?? Number.NaN,
  };
}

/** Sends a JSON request and fails unless the status is `expected`; answers the body text. */
export async function fetchExpecting(url: string, expected: number, init: RequestInit = {}): Promise<string> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${init.method ?? "GET"} ${url}: expected HTTP ${expected}, got ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

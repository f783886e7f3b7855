import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, it } from "vitest";
import { trimBatchSize } from "../emulator/audit";
import { Cluster } from "../proto/gen/cmassh/api_pb";
import { type LocalPlane, startLocalPlane } from "../test/harness/local-plane";
import { repoRoot } from "../test/harness/paths";
import { driveLoad, fetchExpecting, type LoadResult } from "./support/load";
import { type LoadTargets, prepareLoad } from "./support/plane-calls";
import { auditTable, cpuTimeMs, databaseFiles, memoryOf, planePid } from "./support/plane-stats";
import { benchWorkspace } from "./support/programs";
import { publish, type Row, round } from "./support/report";

/** Requests in flight at once, for every case and the baselines. */
const CONCURRENCY = 8;
/** Each case runs this long unmeasured first (JIT, connection set-up), then {@link DURATION_MS} measured. */
const WARMUP_MS = 1000;
const DURATION_MS = 5000;
/** Targets: at least this many requests per second with a p99 below {@link P99_TARGET_MS}. */
const RPS_TARGET = 500;
const P99_TARGET_MS = 50;
/** Far below the default (100,000), so that the run records several times the retention. */
const AUDIT_RETENTION = 10_000;
/** The growth table marks the first checkpoint at or after this many operations. */
const OPERATIONS_MARK = 10_000;
/** After the cases, a mix of every case's calls runs in chunks of this many, until {@link FILL_TO} operations. */
const FILL_CHUNK = 5_000;
const FILL_TO = 3 * AUDIT_RETENTION;

/** A bare server of bench/support/bare-server.mjs, in its own process. */
interface BareServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

function startBareServer(args: string[]): Promise<BareServer> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot(), "bench", "support", "bare-server.mjs"), ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        const stop = (): Promise<void> =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          });
        resolve({ url: match[1], pid: child.pid ?? 0, stop });
      }
    });
    child.stderr?.on("data", (chunk) => {
      err += chunk;
    });
    child.on("exit", (code) => reject(new Error(`bare server ${args[0]} exited with ${code}: ${err || out}`)));
  });
}

/** A measured run plus the CPU time per request each side spent in it. */
interface Measurement {
  result: LoadResult;
  /** The server process's CPU (user + system) per answered request of the measured window, ms. */
  serverCpuMs: number;
  /** This process's CPU (the load generator and its clients) per answered request, ms. */
  clientCpuMs: number;
}

/** One measured case: its identity and what the load run found. */
interface Measured extends Measurement {
  subject: string;
  api: string;
  kind: string;
  operation: string;
}

/**
 * Warms up, then measures, reading the server's CPU time around the measured window; fails when
 * any request failed (then it measured something else).
 */
async function measure(name: string, serverPid: number, send: (n: number, worker: number) => Promise<unknown>): Promise<Measurement & { sent: number }> {
  const warm = await driveLoad(send, { concurrency: CONCURRENCY, durationMs: WARMUP_MS });
  const cpuBefore = cpuTimeMs(serverPid);
  const clientBefore = process.cpuUsage();
  const result = await driveLoad(send, { concurrency: CONCURRENCY, durationMs: DURATION_MS });
  const serverCpuMs = (cpuTimeMs(serverPid) - cpuBefore) / result.completed;
  const client = process.cpuUsage(clientBefore);
  const clientCpuMs = (client.user + client.system) / 1000 / result.completed;
  for (const run of [warm, result]) {
    if (run.errors > 0) throw new Error(`${name}: ${run.errors} of ${run.completed + run.errors} requests failed, first: ${run.firstError}`);
  }
  return { result, serverCpuMs, clientCpuMs, sent: warm.completed + result.completed };
}

function loadRow(m: Measured, baseline: Measured | undefined): Row {
  const r = m.result;
  return {
    subject: m.subject,
    api: m.api,
    kind: m.kind,
    operation: m.operation,
    requests: r.completed,
    "req/s": round(r.requestsPerSecond, 0),
    "p50 ms": round(r.p50Ms, 2),
    "p99 ms": round(r.p99Ms, 2),
    "max ms": round(r.maxMs, 1),
    "req/s / 500": round(r.requestsPerSecond / RPS_TARGET, 2),
    "50 / p99": round(P99_TARGET_MS / r.p99Ms, 2),
    verdict: r.requestsPerSecond >= RPS_TARGET && r.p99Ms < P99_TARGET_MS ? "meets" : "misses",
    "req/s / baseline": baseline ? round(r.requestsPerSecond / baseline.result.requestsPerSecond, 2) : "-",
    "server CPU ms/req": round(m.serverCpuMs, 3),
    "CPU / baseline": baseline ? round(m.serverCpuMs / baseline.serverCpuMs, 1) : "-",
    "req/s per core": round(1000 / m.serverCpuMs, 0),
    "client CPU ms/req": round(m.clientCpuMs, 3),
  };
}

const MB = 1024 * 1024;

describe(`the local control plane under load: ${CONCURRENCY} requests in flight, a read and a write of every API`, () => {
  let plane: LocalPlane;
  let targets: LoadTargets;
  let pid: number;

  beforeAll(async () => {
    const workspace = benchWorkspace();
    plane = await startLocalPlane({ workspace, timeScale: 0, flags: ["--audit-retention", String(AUDIT_RETENTION)] });
    pid = planePid(plane.dataDir);
    targets = await prepareLoad(plane.url, CONCURRENCY);
  });

  afterAll(async () => {
    await plane?.stop();
  });

  it("reports requests per second and p50/p99 latency per API and kind, against bare servers, and the plane's memory, database and audit table as operations accumulate", async () => {
    const json = await startBareServer(["json", String(targets.restReplyBytes)]);
    const grpc = await startBareServer(["grpc", path.join(benchWorkspace()), targets.getClusterReplyJson]);
    const measured: Measured[] = [];
    const growth: Row[] = [];
    const growthSamples: Record<string, unknown>[] = [];
    let operations = 0;
    let marked = false;
    const checkpoint = (after: string): void => {
      const audit = auditTable(plane.dataDir);
      const files = databaseFiles(plane.dataDir);
      const memory = memoryOf(pid);
      const mark = !marked && operations >= OPERATIONS_MARK;
      marked ||= mark;
      growthSamples.push({ after, operations, audit, files, memory });
      growth.push({
        after: mark ? `${after} (>= ${OPERATIONS_MARK})` : after,
        operations,
        "audit seq": audit.newestSeq,
        "audit rows": audit.rows,
        "rows within bound": audit.rows <= AUDIT_RETENTION + trimBatchSize(AUDIT_RETENTION) - 1 ? "yes" : "NO",
        "audit KiB": round(audit.tableBytes / 1024, 0),
        "db KiB": round(files.dbBytes / 1024, 0),
        "wal KiB": round(files.walBytes / 1024, 0),
        "RSS MiB": round(memory.rssBytes / MB, 1),
        "peak RSS MiB": round(memory.peakRssBytes / MB, 1),
      });
    };
    try {
      const baselines = async (pass: string): Promise<{ json: Measured; grpc: Measured }> => {
        const bareJson = await measure("bare node:http JSON", json.pid, () => fetchExpecting(`${json.url}/`, 200));
        const bareClient = createClient(Cluster, createGrpcTransport({ baseUrl: grpc.url }));
        const bareGrpc = await measure("bare connect-node gRPC", grpc.pid, () => bareClient.getCluster({ name: "load" }));
        const subject = `baseline (${pass})`;
        const jsonRow = { subject, api: "node:http", kind: "read", operation: `JSON ${targets.restReplyBytes} B`, ...bareJson };
        const grpcRow = { subject, api: "connect-node", kind: "read", operation: "GetCluster (fixed reply)", ...bareGrpc };
        measured.push(jsonRow, grpcRow);
        return { json: jsonRow, grpc: grpcRow };
      };
      const before = await baselines("first");
      checkpoint("set-up");
      // Every path of the plane is compiled and warm before any is measured: the first case pays no more than the last.
      for (const c of targets.cases) {
        const warm = await driveLoad(c.send, { concurrency: CONCURRENCY, durationMs: WARMUP_MS });
        if (warm.errors > 0) throw new Error(`${c.api} ${c.operation} (warm-up): ${warm.errors} failed, first: ${warm.firstError}`);
        operations += warm.completed;
      }
      checkpoint("warm-up of every case");
      const planeRows: { m: Measured; baseline: Measured }[] = [];
      for (const c of targets.cases) {
        const seqBefore = auditTable(plane.dataDir).newestSeq;
        const { result, serverCpuMs, clientCpuMs, sent } = await measure(`${c.api} ${c.operation}`, pid, c.send);
        operations += sent;
        const recorded = auditTable(plane.dataDir).newestSeq - seqBefore;
        // Every call goes through the audit log: a different count means the calls were not what this case says.
        if (recorded !== sent) throw new Error(`${c.api} ${c.operation}: sent ${sent} calls, the audit log recorded ${recorded}`);
        const m = { subject: "plane", api: c.api, kind: c.kind, operation: c.operation, result, serverCpuMs, clientCpuMs };
        measured.push(m);
        planeRows.push({ m, baseline: ["cmassh", "peloton", "vcluster"].includes(c.api) ? before.grpc : before.json });
        checkpoint(`${c.api} ${c.kind}`);
      }
      const after = await baselines("last");
      const rows = [
        ...measured.filter((m) => m.subject === "baseline (first)").map((m) => loadRow(m, undefined)),
        ...planeRows.map(({ m, baseline }) => loadRow(m, baseline)),
        ...measured.filter((m) => m.subject === "baseline (last)").map((m) => loadRow(m, m.api === "node:http" ? before.json : before.grpc)),
      ];
      publish("plane-load", `Plane load: ${CONCURRENCY} in flight, ${WARMUP_MS} ms warm-up + ${DURATION_MS} ms per case, time scale 0 (gRPC rows compare with the connect-node baseline, REST rows with node:http)`, rows, {
        concurrency: CONCURRENCY,
        warmupMs: WARMUP_MS,
        durationMs: DURATION_MS,
        targets: { requestsPerSecond: RPS_TARGET, p99Ms: P99_TARGET_MS },
        measured,
        baselineDrift: { json: after.json.result.requestsPerSecond / before.json.result.requestsPerSecond, grpc: after.grpc.result.requestsPerSecond / before.grpc.result.requestsPerSecond },
      });
      // Every case's calls in turn, until the log has been over its retention several times.
      const cases = targets.cases;
      const mixed = (n: number, worker: number): Promise<unknown> => cases[n % cases.length].send(n, worker);
      while (operations < FILL_TO) {
        const seqBefore = auditTable(plane.dataDir).newestSeq;
        const chunk = await driveLoad(mixed, { concurrency: CONCURRENCY, durationMs: Number.POSITIVE_INFINITY, maxRequests: FILL_CHUNK });
        if (chunk.errors > 0) throw new Error(`mixed calls: ${chunk.errors} failed, first: ${chunk.firstError}`);
        operations += chunk.completed;
        const recorded = auditTable(plane.dataDir).newestSeq - seqBefore;
        if (recorded !== chunk.completed) throw new Error(`mixed calls: sent ${chunk.completed}, the audit log recorded ${recorded}`);
        checkpoint(`mixed, ${Math.round(chunk.requestsPerSecond)} req/s`);
      }
      publish("plane-growth", `Plane growth: audit retention ${AUDIT_RETENTION} (trim batch ${trimBatchSize(AUDIT_RETENTION)}), after each case and each ${FILL_CHUNK} mixed calls`, growth, {
        auditRetention: AUDIT_RETENTION,
        samples: growthSamples,
      });
    } finally {
      await Promise.all([json.stop(), grpc.stop()]);
    }
  });
});

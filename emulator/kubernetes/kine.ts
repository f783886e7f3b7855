import * as path from "node:path";
import { freePort, waitForPort } from "./free-port";
import { SupervisedProcess } from "./supervised-process";

/**
 * kine's own SQLite parameters. A custom database path drops kine's defaults, and without WAL and a
 * busy timeout the API servers' writes collide and readiness never comes.
 */
const SQLITE_PARAMS = "_journal_mode=WAL&_busy_timeout=30000&_synchronous=NORMAL&_txlock=immediate&_stmt_cache_size=20&cache=shared";

/** kine's SQLite file in the plane's kubernetes folder. */
export const KINE_DATABASE = "kine.db";

/** How long kine may take to accept connections. */
const KINE_START_TIMEOUT_MS = 30_000;

/** The plane's one kine: an etcd API over SQLite, shared by every API server (each under its own prefix). */
export interface RunningKine {
  /** `http://127.0.0.1:port`, for `--etcd-servers`. */
  endpoint: string;
  /** The SQLite file kine stores in. */
  databaseFile: string;
  process: SupervisedProcess;
}

/** Starts kine on free ports, storing in `<dir>/kine.db`; resolves once it accepts connections. */
export async function startKine(binary: string, dir: string, onSpawn?: (process: SupervisedProcess) => void): Promise<RunningKine> {
  const port = await freePort();
  const metricsPort = await freePort();
  const databaseFile = path.join(dir, KINE_DATABASE);
  const process = new SupervisedProcess("kine", binary, [
    `--endpoint=sqlite://${databaseFile}?${SQLITE_PARAMS}`,
    `--listen-address=127.0.0.1:${port}`,
    // Its default (:8080 on every interface) clashes with anything else on the machine.
    `--metrics-bind-address=127.0.0.1:${metricsPort}`,
  ], path.join(dir, "kine.log"), onSpawn);
  try {
    await waitForPort(port, KINE_START_TIMEOUT_MS, () => process.alive);
  } catch (error) {
    await process.stop();
    throw new Error(`kine did not start (log: ${path.join(dir, "kine.log")}): ${error instanceof Error ? error.message : String(error)}`);
  }
  return { endpoint: `http://127.0.0.1:${port}`, databaseFile, process };
}

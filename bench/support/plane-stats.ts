import { readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { descendants } from "../../test/harness/processes";

/** The pid of the plane this process started with its data in `dataDir` (its command line names the folder). */
export function planePid(dataDir: string): number {
  for (const pid of descendants(process.pid)) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (cmdline.some((arg) => arg.endsWith(path.join("emulator", "cli.js"))) && cmdline.includes(dataDir)) return pid;
    } catch {
      // Ended meanwhile.
    }
  }
  throw new Error(`no clusterform-local process with --data ${dataDir} among this process's children: cannot measure its memory`);
}

/** A process's resident set and its peak, bytes (Linux `/proc/<pid>/status`). */
export function memoryOf(pid: number): { rssBytes: number; peakRssBytes: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string): number => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    if (!match) throw new Error(`/proc/${pid}/status has no ${field}: cannot measure the plane's memory`);
    return Number(match[1]) * 1024;
  };
  return { rssBytes: kib("VmRSS"), peakRssBytes: kib("VmHWM") };
}

/** The plane's database files: `state.db`, its WAL and shared-memory index, bytes (0 when absent). */
export function databaseFiles(dataDir: string): { dbBytes: number; walBytes: number; shmBytes: number; totalBytes: number } {
  const size = (name: string): number => {
    try {
      return statSync(path.join(dataDir, name)).size;
    } catch {
      return 0;
    }
  };
  const dbBytes = size("state.db");
  const walBytes = size("state.db-wal");
  const shmBytes = size("state.db-shm");
  return { dbBytes, walBytes, shmBytes, totalBytes: dbBytes + walBytes + shmBytes };
}

/** What the audit table holds, read beside the running plane (WAL lets a reader in). */
export interface AuditTableStats {
  rows: number;
  oldestSeq: number;
  newestSeq: number;
  /** Pages of the table and its index, in use or free inside them (SQLite `dbstat`). */
  tableBytes: number;
  /** Bytes of every table and index, by name, for seeing what else grows. */
  bytesByTable: Record<string, number>;
}

/** Reads the audit table's rows, seq range and bytes from `<dataDir>/state.db`, read-only. */
export function auditTable(dataDir: string): AuditTableStats {
  const db = new DatabaseSync(path.join(dataDir, "state.db"), { readOnly: true });
  try {
    const range = db.prepare("SELECT COUNT(*) AS rows, MIN(seq) AS oldest, MAX(seq) AS newest FROM audit").get() as { rows: number; oldest: number | null; newest: number | null };
    const pages = db.prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name").all() as { name: string; bytes: number }[];
    const bytesByTable = Object.fromEntries(pages.map((p) => [p.name, p.bytes]));
    const tableBytes = pages.filter((p) => p.name === "audit").reduce((sum, p) => sum + p.bytes, 0);
    return { rows: range.rows, oldestSeq: range.oldest ?? 0, newestSeq: range.newest ?? 0, tableBytes, bytesByTable };
  } finally {
    db.close();
  }
}

/** Clock ticks per second of `/proc/<pid>/stat` times: 100 on every Linux x64 kernel in use. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time a process has used so far, user + system, milliseconds (10 ms resolution). Unlike wall
 * time, it does not grow when other work on the machine takes the cores away.
 */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

import { readFileSync } from "node:fs";
import type { DatabaseSync } from "node:sqlite";
import type { SupervisedProcess } from "./supervised-process";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS kubernetes_processes (
  pid INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  started TEXT NOT NULL
);
`;

/** How long a SIGKILLed leftover may take to disappear from /proc. */
const KILL_WAIT_MS = 5000;

/**
 * The kernel's start time of a process (field 22 of /proc/<pid>/stat, in clock ticks since boot):
 * with the pid, it names one process for good, so a pid the kernel gave to someone else since is
 * never mistaken for ours. Undefined once the process is gone.
 */
export function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces: count fields after it.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/**
 * Every process the Kubernetes host started (kine, API servers, controller managers), kept in the
 * plane's database while it runs. A plane that ended without stopping them (SIGKILL, a crash)
 * leaves them running, holding the cluster's port and answering with its certificate; the next
 * start of the plane finds them here and ends them before starting its own.
 */
export class ProcessLedger {
  constructor(private readonly db: DatabaseSync) {
    db.exec(SCHEMA);
  }

  /** Records a started process under a cluster key (or `kine`) until it exits. */
  track(key: string, process: SupervisedProcess): void {
    const pid = process.pid;
    if (pid === undefined) return;
    const started = processStartTicks(pid);
    if (started === undefined) return;
    this.db.prepare("INSERT OR REPLACE INTO kubernetes_processes (pid, key, started) VALUES (?, ?, ?)").run(pid, key, started);
    void process.exit.then(() => {
      try {
        this.db.prepare("DELETE FROM kubernetes_processes WHERE pid = ? AND started = ?").run(pid, started);
      } catch {
        // The database closed with the plane: the row is stale, and the next start checks it.
      }
    });
  }

  /**
   * SIGKILLs every recorded process that still runs (of one key, or all), waits until they are
   * gone, and forgets them. Answers the pids it ended.
   */
  async killLeftovers(key?: string): Promise<number[]> {
    const rows = (key === undefined
      ? this.db.prepare("SELECT pid, started FROM kubernetes_processes").all()
      : this.db.prepare("SELECT pid, started FROM kubernetes_processes WHERE key = ?").all(key)) as { pid: number; started: string }[];
    const killed: number[] = [];
    for (const { pid, started } of rows) {
      if (processStartTicks(pid) !== started) continue;
      try {
        process.kill(pid, "SIGKILL");
        killed.push(pid);
      } catch {
        // Gone meanwhile.
      }
    }
    const deadline = Date.now() + KILL_WAIT_MS;
    while (killed.some((pid) => processStartTicks(pid) !== undefined && isRunning(pid)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const { pid } of rows) this.db.prepare("DELETE FROM kubernetes_processes WHERE pid = ?").run(pid);
    return killed;
  }
}

/** False for a zombie (killed, not yet reaped by its parent) or a vanished process. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

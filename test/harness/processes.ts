import { readdirSync, readFileSync } from "node:fs";

/** Every live process: pid, parent pid, command line. Linux only (reads /proc). */
function processTable(): { pid: number; ppid: number; cmdline: string }[] {
  const table: { pid: number; ppid: number; cmdline: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name in /proc/<pid>/stat is in parentheses and may hold spaces: read after it.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      table.push({ pid: Number(entry), ppid, cmdline });
    } catch {
      // The process ended while being read.
    }
  }
  return table;
}

/** The pids of every descendant of `pid`, children first. */
export function descendants(pid: number): number[] {
  const table = processTable();
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const p of table) {
      if (p.ppid === parent && !found.includes(p.pid)) {
        found.push(p.pid);
        queue.push(p.pid);
      }
    }
  }
  return found;
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * SIGKILLs `pid`, its process group and every process it started, wherever they are. The Pulumi CLI
 * starts its language host and providers in process groups of their own, so killing the CLI's
 * group alone, as an interrupted CI job does, leaves them running: a test must end them itself.
 * The tree is read before the kill, since orphans are reparented and can no longer be traced.
 */
export function killTree(pid: number): void {
  const tree = descendants(pid);
  kill(-pid, "SIGKILL");
  kill(pid, "SIGKILL");
  for (const child of tree) kill(child, "SIGKILL");
}

/** Processes whose environment holds `marker` (`NAME=value`), other than this one. */
export function processesMarked(marker: string): { pid: number; cmdline: string }[] {
  return processTable().filter(({ pid }) => {
    if (pid === process.pid) return false;
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(marker);
    } catch {
      return false;
    }
  });
}

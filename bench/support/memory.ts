import { readdirSync, readFileSync } from "node:fs";

/** The processes of one engine run, by what they are. */
export type ProcessRole = "cli" | "language host (Go)" | "program (node)" | "provider host (node)" | "other";

/** Peak resident memory of each role seen, in MiB (the largest process of that role). */
export type PeakMemory = Partial<Record<ProcessRole, number>>;

/** The role of a process of an engine run, from its command line. */
export function roleOf(cmdline: string[]): ProcessRole {
  const exe = (cmdline[0] ?? "").split("/").pop() ?? "";
  if (exe === "pulumi") return "cli";
  if (exe === "pulumi-language-nodejs") return "language host (Go)";
  // `node -e "...dynamic-provider..."` (the
  // provider shim resolving the script's path) is not the provider host.
  if (!exe.startsWith("node") || cmdline.includes("-e")) return "other";
  if (cmdline.some((arg) => /dynamic-provider/.test(arg))) return "provider host (node)";
  if (cmdline.some((arg) => /[\\/]cmd[\\/]run/.test(arg))) return "program (node)";
  return "other";
}

/** VmHWM of /proc/<pid>/status: the peak resident set size the kernel recorded, in KiB. */
function peakKib(pid: number): number | undefined {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) : undefined;
}

/** A running sampler; `stop()` returns the peaks and every process seen. */
export interface MemorySampler {
  stop(): { peaks: PeakMemory; processes: { pid: number; role: ProcessRole; peakMib: number; cmdline: string }[] };
}

/**
 * Samples the peak RSS (VmHWM, which the kernel keeps per process, so a spike between two samples
 * still counts) of every process whose environment holds `marker` (`NAME=value`), every
 * `intervalMs`, until stopped. Linux only. A process's last sample before it exits is its figure,
 * so growth in its final `intervalMs` can be missed.
 * @param intervalMs - time between scans of /proc. @default 100
 */
export function sampleMemory(marker: string, intervalMs = 100): MemorySampler {
  const seen = new Map<number, { role: ProcessRole; peakKib: number; cmdline: string }>();
  const others = new Set<number>();
  const scan = () => {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      if (pid === process.pid || others.has(pid)) continue;
      try {
        if (!seen.has(pid) && !readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(marker)) {
          others.add(pid);
          continue;
        }
        // Read each time: a process caught between fork and exec still shows its parent's command.
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((a) => a !== "");
        const before = seen.get(pid);
        // An exited process (a zombie until reaped) shows no command line and no memory: keep what it had.
        if (cmdline.length === 0 && before !== undefined) continue;
        const peak = peakKib(pid) ?? 0;
        const role = roleOf(cmdline);
        // After an exec the process is another program, with a peak of its own.
        const same = before !== undefined && before.role === role;
        seen.set(pid, { role, peakKib: same ? Math.max(before.peakKib, peak) : peak, cmdline: cmdline.join(" ") });
      } catch {
        // Not ours to read, or it exited meanwhile.
      }
    }
  };
  scan();
  const timer = setInterval(scan, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      scan();
      const processes = [...seen].map(([pid, p]) => ({ pid, role: p.role, peakMib: p.peakKib / 1024, cmdline: p.cmdline }));
      const peaks: PeakMemory = {};
      for (const p of processes) peaks[p.role] = Math.max(peaks[p.role] ?? 0, p.peakMib);
      return { peaks, processes };
    },
  };
}

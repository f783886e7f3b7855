import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The plane's pid file, and `clusterform-local stop`. A plane started in the background through
 * npx (`npx clusterform-local ... &`) has npm as the shell's `$!`, not itself: the pid file is how
 * a script finds the process to stop.
 */

/** The pid file's name inside the data folder, where the plane writes it unless `--pid-file` says otherwise. */
export const PID_FILE_NAME = "clusterform-local.pid";

/** How long `stop` waits for the plane to exit after SIGTERM (it closes its servers and database). */
export const STOP_TIMEOUT_MS = 30_000;

/** Between two looks at whether the stopped process has exited. */
const STOP_POLL_MS = 50;

/** The pid file of a plane whose state lives in `dataDir`, when `--pid-file` is not given. */
export function defaultPidFile(dataDir: string): string {
  return path.join(dataDir, PID_FILE_NAME);
}

/** Writes `pid` to `file` (its folder created), through a renamed temporary file so no reader sees half of it. */
export function writePidFile(file: string, pid: number = process.pid): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const partial = `${file}.${pid}.partial`;
  fs.writeFileSync(partial, `${pid}\n`);
  fs.renameSync(partial, file);
}

/** Removes `file` if it still names `pid`: a plane started later with the same file owns it then. */
export function removePidFile(file: string, pid: number = process.pid): void {
  try {
    if (fs.readFileSync(file, "utf8").trim() === String(pid)) fs.rmSync(file, { force: true });
  } catch {
    // Already gone: nothing to remove.
  }
}

/** Thrown by {@link stopPlane}; the message says what was found and what it means. */
export class StopError extends Error {}

/**
 * True while process `pid` runs. A process that exited but was not yet reaped by its parent (a
 * zombie: Linux's /proc/<pid>/stat state Z) has stopped too.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EPERM") return true;
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

/**
 * False when process `pid` is something other than clusterform-local: its pid was reused after a
 * plane that left a stale file behind. Known only where /proc tells (Linux); true elsewhere.
 */
function isPlaneProcess(pid: number): boolean {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return argv.some((arg) => arg.includes("clusterform-local") || arg.replace(/\\/g, "/").endsWith("emulator/cli.js"));
  } catch {
    return true;
  }
}

function readPid(file: string): number {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    throw new StopError(
      `no pid file at ${file}: clusterform-local is not running with this data folder (it writes <data>/${PID_FILE_NAME} once listening), or it was started with another --pid-file`,
    );
  }
  const pid = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(pid) || pid < 1) {
    throw new StopError(`${file} does not hold a process id: expected a positive integer, found ${JSON.stringify(text.trim())}`);
  }
  return pid;
}

/**
 * Stops the plane whose pid `file` names: SIGTERM (the plane then closes cleanly and removes the
 * file), then waits until the process has exited.
 * @param timeoutMs - how long to wait for the exit. @default {@link STOP_TIMEOUT_MS}
 * @returns the stopped process's id.
 * @throws StopError when there is no pid file, it holds no pid, the process is not running (the
 *   stale file is removed), cannot be signalled, or has not exited in time.
 */
export async function stopPlane(file: string, timeoutMs: number = STOP_TIMEOUT_MS): Promise<number> {
  const pid = readPid(file);
  if (!isRunning(pid) || !isPlaneProcess(pid)) {
    const now = isRunning(pid) ? "now another program (its id was reused)" : "gone";
    fs.rmSync(file, { force: true });
    throw new StopError(
      `clusterform-local is not running: ${file} names process ${pid}, which is ${now}; the plane did not exit cleanly. Removed the stale pid file`,
    );
  }
  try {
    process.kill(pid, "SIGTERM");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ESRCH") {
      removePidFile(file, pid);
      return pid;
    }
    throw new StopError(`cannot stop process ${pid} named by ${file}: ${code === "EPERM" ? "it belongs to another user" : String(err)}`);
  }
  const giveUpAt = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() >= giveUpAt) {
      throw new StopError(`process ${pid} named by ${file} is still running ${Math.round(timeoutMs / 1000)}s after SIGTERM`);
    }
    await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
  }
  // A plane that exited without its clean-up (killed while closing) leaves the file behind.
  removePidFile(file, pid);
  return pid;
}

import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";

/** How long a process has after SIGTERM before it gets SIGKILL. */
export const STOP_GRACE_MS = 5000;

/** A child process whose output goes to a log file and which the plane stops when it closes. */
export class SupervisedProcess {
  readonly child: ChildProcess;
  private exited = false;
  private stopAsked = false;
  readonly exit: Promise<number | null>;

  constructor(
    readonly name: string,
    command: string,
    args: readonly string[],
    logFile: string,
    /** Told of the process once it is spawned (the host records it, to end it after a crash). @default none */
    onSpawn?: (process: SupervisedProcess) => void,
    /** The child's environment. @default the plane's own */
    env?: NodeJS.ProcessEnv,
  ) {
    const fd = openSync(logFile, "a");
    try {
      // Own stdio to a file: a chatty API server must not fill a pipe nobody reads.
      this.child = spawn(command, args, { stdio: ["ignore", fd, fd], ...(env ? { env } : {}) });
    } finally {
      closeSync(fd);
    }
    this.exit = new Promise((resolve) => {
      this.child.once("exit", (code) => {
        this.exited = true;
        resolve(code);
      });
      this.child.once("error", () => {
        this.exited = true;
        resolve(null);
      });
    });
    onSpawn?.(this);
  }

  /** The OS process id (undefined if spawning failed). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** True once {@link stop} was called: an exit after it was asked for, not a crash. */
  get stopping(): boolean {
    return this.stopAsked;
  }

  /** SIGTERM, then SIGKILL after {@link STOP_GRACE_MS}; resolves once the process is gone. */
  async stop(): Promise<void> {
    this.stopAsked = true;
    if (this.exited) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), STOP_GRACE_MS);
    await this.exit;
    clearTimeout(timer);
  }
}

import { spawn } from "node:child_process";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { makeDataDir, removeDataDirs } from "../testing";
import { ProcessLedger, processStartTicks } from "./process-ledger";
import { SupervisedProcess } from "./supervised-process";

afterAll(removeDataDirs);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleeper = (dir: string, onSpawn?: (p: SupervisedProcess) => void) => new SupervisedProcess("sleep", "/bin/sleep", ["300"], path.join(dir, "sleep.log"), onSpawn);

describe("ProcessLedger", () => {
  it("ends what an earlier plane on the same database left running, and forgets it", async () => {
    const dir = makeDataDir();
    const db = new DatabaseSync(path.join(dir, "state.db"));
    const first = new ProcessLedger(db);
    const p = sleeper(dir, (s) => first.track("cmassh/1", s));
    const pid = p.pid!;
    // The plane that started it is gone (a crash): a new ledger on the same database finds it.
    const killed = await new ProcessLedger(db).killLeftovers();
    expect(killed).toEqual([pid]);
    await p.exit;
    expect(alive(pid)).toBe(false);
    expect(await new ProcessLedger(db).killLeftovers()).toEqual([]);
    db.close();
  });

  it("ends only the processes of the key asked for", async () => {
    const dir = makeDataDir();
    const db = new DatabaseSync(path.join(dir, "state.db"));
    const ledger = new ProcessLedger(db);
    const mine = sleeper(dir, (s) => ledger.track("vcluster/a", s));
    const other = sleeper(dir, (s) => ledger.track("vcluster/b", s));
    expect(await ledger.killLeftovers("vcluster/a")).toEqual([mine.pid]);
    await mine.exit;
    expect(alive(other.pid!)).toBe(true);
    await other.stop();
    db.close();
  });

  it("never ends a process that only has a recorded pid: its kernel start time must match too", async () => {
    const dir = makeDataDir();
    const db = new DatabaseSync(path.join(dir, "state.db"));
    const ledger = new ProcessLedger(db);
    const stranger = spawn("/bin/sleep", ["300"], { stdio: "ignore" });
    const pid = stranger.pid!;
    expect(processStartTicks(pid)).toMatch(/^\d+$/);
    // A row naming this pid with another start time: the pid was reused by someone else.
    db.prepare("INSERT INTO kubernetes_processes (pid, key, started) VALUES (?, ?, ?)").run(pid, "cmassh/9", "1");
    expect(await ledger.killLeftovers()).toEqual([]);
    expect(alive(pid)).toBe(true);
    stranger.kill("SIGKILL");
    db.close();
  });
});

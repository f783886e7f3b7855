import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { build } from "rolldown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRunning } from "./pid-file";
import { makeDataDir, removeDataDirs } from "./testing";

afterAll(removeDataDirs);

const repoRoot = path.resolve(__dirname, "..");
let cliPath: string;

/**
 * Bundles the emulator's command (and the code it imports, the libraries left out) into a temporary
 * directory, so the test runs the command as a process without depending on the rest of the tree
 * building: a bundle takes about a second, where compiling the same files with tsc took 10 to 20.
 */
beforeAll(async () => {
  cliPath = path.join(makeDataDir(), "emulator", "cli.js");
  await build({
    input: path.join(repoRoot, "emulator", "cli.ts"),
    platform: "node",
    logLevel: "warn",
    external: (id) => !id.startsWith(".") && !path.isAbsolute(id),
    output: { file: cliPath, format: "cjs", codeSplitting: false },
  });
}, 120_000);

interface Run {
  child: ChildProcess;
  stderr: () => string;
  exit: Promise<number | null>;
}

function runCli(args: string[]): Run {
  // NODE_PATH lets the build outside the repository resolve the repository's node_modules.
  const child = spawn(process.execPath, [cliPath, ...args], {
    env: { ...process.env, NODE_PATH: path.join(repoRoot, "node_modules") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stderr: () => stderr, exit };
}

/** Starts a plane on a free port and resolves once it prints its listening line. */
async function startPlane(args: string[]): Promise<Run> {
  const run = runCli(["--port", "0", "--time-scale", "0.01", ...args]);
  const reader = createInterface({ input: run.child.stdout! });
  const first = await new Promise<string>((resolve) => reader.once("line", resolve));
  expect(first).toMatch(/^clusterform-local listening on http:\/\/127\.0\.0\.1:\d+$/);
  return run;
}

/** Runs `clusterform-local stop ...` to its end. */
async function stop(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(["stop", ...args]);
  const stdout = (await stdoutLines(run)).join("\n");
  return { code: await run.exit, stdout, stderr: run.stderr() };
}

/** The id of a process that has exited: what a pid file left by a killed plane names. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

async function stdoutLines(run: Run): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: run.child.stdout! })) lines.push(line);
  return lines;
}

describe("clusterform-local CLI", () => {
  it.each([["SIGTERM"], ["SIGINT"]] as const)("prints one listening line, serves, and stops cleanly on %s", async (signal) => {
    const run = runCli(["--port", "0", "--data", makeDataDir(), "--time-scale", "0.01"]);
    const reader = createInterface({ input: run.child.stdout! });
    const first = await new Promise<string>((resolve) => reader.once("line", resolve));
    const match = /^clusterform-local listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(first);
    expect(match).not.toBeNull();
    const health = await fetch(`${match![1]}/_local/health`);
    expect(await health.json()).toEqual({ status: "ok" });
    const rest: string[] = [];
    reader.on("line", (line) => rest.push(line));
    run.child.kill(signal);
    expect(await run.exit).toBe(0);
    expect(rest).toEqual([]);
    expect(run.stderr()).toBe("");
  });

  it.each([
    [["--port", "70000"], 'invalid value "70000" for --port: expected an integer from 0 to 65535'],
    [["--time-scale=fast"], 'invalid value "fast" for --time-scale'],
    [["--cmassh-versions", "1.2"], '--cmassh-versions: invalid version "1.2"'],
    [["--verbose"], "--verbose"],
  ])("exits 2 with a clear message for %j", async (args, message) => {
    const run = runCli(args);
    const lines = await stdoutLines(run);
    expect(await run.exit).toBe(2);
    expect(lines).toEqual([]);
    expect(run.stderr()).toContain(`clusterform-local: `);
    expect(run.stderr()).toContain(message);
    expect(run.stderr()).toContain("Usage: clusterform-local");
  });
});

describe("clusterform-local's pid file and stop", () => {
  it("writes the pid file once listening and removes it when stopped by a signal", async () => {
    const data = makeDataDir();
    const pidFile = path.join(data, "clusterform-local.pid");
    const run = await startPlane(["--data", data]);
    expect(fs.readFileSync(pidFile, "utf8")).toBe(`${run.child.pid}\n`);
    run.child.kill("SIGTERM");
    expect(await run.exit).toBe(0);
    expect(fs.existsSync(pidFile)).toBe(false);
  });

  it.each([
    ["--data DIR (the pid file inside the data folder)", (data: string) => ({ start: ["--data", data], stop: ["--data", data], pidFile: path.join(data, "clusterform-local.pid") })],
    ["--pid-file PATH", (data: string) => {
      const pidFile = path.join(data, "run", "plane.pid");
      return { start: ["--data", data, "--pid-file", pidFile], stop: ["--pid-file", pidFile], pidFile };
    }],
  ])("stop %s stops the plane and returns once it has exited", async (_, layout) => {
    const { start, stop: stopArgs, pidFile } = layout(makeDataDir());
    const run = await startPlane(start);
    const pid = run.child.pid!;
    expect(fs.readFileSync(pidFile, "utf8")).toBe(`${pid}\n`);
    const stopped = await stop(stopArgs);
    expect(stopped).toEqual({ code: 0, stdout: `clusterform-local (process ${pid}) stopped`, stderr: "" });
    expect(isRunning(pid)).toBe(false);
    expect(await run.exit).toBe(0);
    expect(fs.existsSync(pidFile)).toBe(false);
    expect(run.stderr()).toBe("");
  });

  it("refuses a stale pid file with a clear message, and removes it", async () => {
    const data = makeDataDir();
    const pidFile = path.join(data, "clusterform-local.pid");
    const pid = await exitedPid();
    fs.writeFileSync(pidFile, `${pid}\n`);
    expect(await stop(["--data", data])).toEqual({
      code: 1,
      stdout: "",
      stderr: `clusterform-local stop: clusterform-local is not running: ${pidFile} names process ${pid}, which is gone; the plane did not exit cleanly. Removed the stale pid file\n`,
    });
    expect(fs.existsSync(pidFile)).toBe(false);
  });

  it.each<[string, string | undefined, (file: string) => string]>([
    ["no pid file", undefined, (file) => `no pid file at ${file}: clusterform-local is not running with this data folder`],
    ["a pid file without a process id", "not-a-pid\n", (file) => `${file} does not hold a process id: expected a positive integer, found "not-a-pid"`],
    ["a pid file naming process 0", "0\n", (file) => `${file} does not hold a process id: expected a positive integer, found "0"`],
  ])("exits 1 on %s, saying what it found", async (_, content, message) => {
    const data = makeDataDir();
    const pidFile = path.join(data, "clusterform-local.pid");
    if (content !== undefined) fs.writeFileSync(pidFile, content);
    const stopped = await stop(["--data", data]);
    expect([stopped.code, stopped.stdout]).toEqual([1, ""]);
    expect(stopped.stderr).toContain(`clusterform-local stop: ${message(pidFile)}`);
  });
});

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDataDir, removeDataDirs } from "./testing";

afterAll(removeDataDirs);

const repoRoot = path.resolve(__dirname, "..");
let cliPath: string;

/**
 * Compiles only the emulator (and the generated code it imports) into a temporary directory with the
 * repository's compiler options, so the test does not depend on the rest of the tree building.
 */
beforeAll(() => {
  const outDir = makeDataDir();
  const tsconfig = path.join(outDir, "tsconfig.json");
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: path.join(repoRoot, "tsconfig.json"),
      compilerOptions: { outDir, rootDir: repoRoot, declaration: false, typeRoots: [path.join(repoRoot, "node_modules/@types")] },
      files: [path.join(repoRoot, "emulator/cli.ts")],
      include: [],
    }),
  );
  execFileSync(process.execPath, [path.join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", tsconfig]);
  cliPath = path.join(outDir, "emulator/cli.js");
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

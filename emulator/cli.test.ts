import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type * as net from "node:net";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { build } from "rolldown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./kubernetes/free-port";
import { isRunning } from "./pid-file";
import { createClusterBody, makeDataDir, removeDataDirs } from "./testing";

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

/**
 * Starts `clusterform-local args...`. `fileSizeLimitKb` runs it under that file size limit
 * (`ulimit -f`): its writes past it fail, as on a full disk.
 */
function runCli(args: string[], opts: { fileSizeLimitKb?: number } = {}): Run {
  const command = [process.execPath, cliPath, ...args];
  if (opts.fileSizeLimitKb !== undefined) command.unshift("bash", "-c", `ulimit -f ${opts.fileSizeLimitKb} && exec "$@"`, "bash");
  // NODE_PATH lets the build outside the repository resolve the repository's node_modules.
  const child = spawn(command[0], command.slice(1), {
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

/** A plane started by {@link startPlane}: its process and its address. */
interface PlaneRun extends Run {
  url: string;
}

/** Starts a plane on a free port and resolves once it prints its listening line. */
async function startPlane(args: string[], timeScale = "0.01"): Promise<PlaneRun> {
  const run = runCli(["--port", "0", "--time-scale", timeScale, ...args]);
  const reader = createInterface({ input: run.child.stdout! });
  const first = await new Promise<string>((resolve) => reader.once("line", resolve));
  const match = /^clusterform-local listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(first);
  expect(match, `listening line, got "${first}" (stderr: ${run.stderr()})`).not.toBeNull();
  return { ...run, url: match![1] };
}

/** Runs `clusterform-local args...` to its end. */
async function command(args: string[], opts: { fileSizeLimitKb?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(args, opts);
  const stdout = (await stdoutLines(run)).join("\n");
  return { code: await run.exit, stdout, stderr: run.stderr() };
}

/** Runs `clusterform-local stop ...` to its end. */
const stop = (args: string[]) => command(["stop", ...args]);

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
    [["save"], "save takes one file, got none"],
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

describe("clusterform-local --seed with a bad file", () => {
  it.each([
    ["a YAML syntax error", "cmassh: [\n", "not YAML or JSON at line"],
    ["an unknown field", "vcluster:\n  vclusters:\n    - { name: a, colour: red }\n", 'field "vcluster.vclusters[0]": Unrecognized key: "colour"'],
    ["a wrong type", "peloton:\n  jobs:\n    - { name: a, respool: /x, instanceCount: two }\n", 'field "peloton.jobs[0].instanceCount": Invalid input: expected number, received string'],
    ["a reference the plane refuses", "senlin:\n  clusters:\n    - { name: web, profile: missing }\n", "senlin.clusters[0] (web): the plane refused it: HTTP 400: "],
  ])("exits 1 before it serves on %s, naming the file and the field", async (_label, text, message) => {
    const data = makeDataDir();
    const file = path.join(data, "world.yaml");
    fs.writeFileSync(file, text);
    const run = await command(["--port", "0", "--data", data, "--seed", file]);
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toContain(`clusterform-local: invalid seed file "${file}": `);
    expect(run.stderr).toContain(message);
    expect(fs.existsSync(path.join(data, "clusterform-local.pid"))).toBe(false);
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

describe("clusterform-local save, load and reset", () => {
  // Time scale 10: a cma-ssh create takes 30 s, still in flight when the test has moved it across.
  let source: PlaneRun;
  let target: PlaneRun;
  const rest = async <T>(plane: PlaneRun, method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${plane.url}${p}`, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as T };
  };
  /** The admin view of the cma-ssh clusters, by name. */
  const clusters = async (plane: PlaneRun) => (await rest<{ clusters: { name: string; status: string }[] }>(plane, "GET", "/_local/cmassh/clusters")).body.clusters;
  const audit = async (plane: PlaneRun) => (await rest<{ entries: { operation: string; target: string }[] }>(plane, "GET", "/_local/audit")).body.entries;
  /** A folder holding only `saved.json` with `content`: what a save that fails must leave. */
  const existingFile = (content: string) => {
    const file = path.join(makeDataDir(), "saved.json");
    fs.writeFileSync(file, content);
    return file;
  };

  beforeAll(async () => {
    const seed = path.join(makeDataDir(), "world.yaml");
    fs.writeFileSync(seed, "cmassh:\n  clusters:\n    - { name: legacy, pools: [{ name: workers, count: 2 }] }\n");
    [source, target] = await Promise.all([startPlane(["--data", makeDataDir(), "--seed", seed], "10"), startPlane(["--data", makeDataDir()], "10")]);
  });
  afterAll(async () => {
    for (const plane of [source, target]) {
      plane?.child.kill("SIGTERM");
      await plane?.exit;
    }
  });

  it("saves a running plane to a file and loads it into another: its objects, an operation in flight and the audit", async () => {
    expect((await rest(source, "POST", "/api/v1/cluster", createClusterBody("in-flight"))).status).toBe(200);
    expect((await rest(source, "GET", "/api/v1/cluster?name=legacy")).status).toBe(200);
    const before = await clusters(source);
    expect(before.map((c) => [c.name, c.status])).toEqual([["in-flight", "PROVISIONING"], ["legacy", "RUNNING"]]);
    const entries = await audit(source);
    expect(entries.map((e) => `${e.operation} ${e.target}`)).toEqual(["CreateCluster in-flight", "GetCluster legacy"]);

    const file = existingFile("an older save");
    const saved = await command(["save", file, "--url", source.url]);
    expect(saved).toMatchObject({ code: 0, stderr: "" });
    expect(saved.stdout).toMatch(new RegExp(`^clusterform-local: saved the plane at ${source.url} to ${file} \\(\\d+ bytes\\)$`));
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({ format: "clusterform-local-state", version: 1 });
    expect(fs.readdirSync(path.dirname(file))).toEqual(["saved.json"]);

    expect(await clusters(target)).toEqual([]);
    expect(await command(["load", file, "--url", target.url])).toEqual({ code: 0, stdout: `clusterform-local: loaded ${file} into the plane at ${target.url}`, stderr: "" });
    // The same clusters, the operation in flight with the same start and end: it ends when it would have.
    expect(await clusters(target)).toEqual(before);
    const inFlight = (await rest<{ cluster: { status: string } }>(target, "GET", "/api/v1/cluster?name=in-flight")).body;
    expect(inFlight.cluster.status).toBe("PROVISIONING");
    expect((await audit(target)).slice(0, entries.length)).toEqual(entries);
  });

  it("resets a running plane to what a fresh start has, the seed's objects, without a restart", async () => {
    expect((await clusters(source)).map((c) => c.name)).toEqual(["in-flight", "legacy"]);
    expect(await command(["reset", "--url", source.url])).toEqual({ code: 0, stdout: `clusterform-local: reset the plane at ${source.url}`, stderr: "" });
    expect(source.child.exitCode).toBeNull();
    expect((await clusters(source)).map((c) => [c.name, c.status])).toEqual([["legacy", "RUNNING"]]);
    expect(await audit(source)).toEqual([]);
    // The other plane keeps what it loaded.
    expect((await clusters(target)).map((c) => c.name)).toEqual(["in-flight", "legacy"]);
  });

  it.each<[string, (url: string) => string[], RegExp]>([
    ["save", (url) => ["save", existingFile("an older save"), "--url", url], /^clusterform-local: no plane answers at http:\/\/127\.0\.0\.1:\d+ \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)\n$/],
    ["load", (url) => ["load", existingFile("an older save"), "--url", url], /^clusterform-local: no plane answers at http:\/\/127\.0\.0\.1:\d+ \(connect ECONNREFUSED/],
    ["reset", (url) => ["reset", "--url", url], /^clusterform-local: no plane answers at http:\/\/127\.0\.0\.1:\d+ \(connect ECONNREFUSED/],
  ])("%s exits 1 when no plane answers, saying where it looked", async (_label, args, message) => {
    const argv = args(`http://127.0.0.1:${await freePort()}`);
    const run = await command(argv);
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toMatch(message);
    if (argv[0] !== "reset") expect(fs.readFileSync(argv[1], "utf8")).toBe("an older save");
  });

  it("load exits 1 naming a file that does not exist, and a file that is not a saved plane, changing nothing", async () => {
    const missing = path.join(makeDataDir(), "nope.json");
    const run = await command(["load", missing, "--url", target.url]);
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toBe(`clusterform-local: cannot read ${missing}: ENOENT: no such file or directory, open '${missing}'\n`);
    const bad = await command(["load", existingFile("an older save"), "--url", target.url]);
    expect([bad.code, bad.stdout]).toEqual([1, ""]);
    expect(bad.stderr).toBe("clusterform-local: PUT /_local/state: HTTP 400: invalid saved state: not JSON\n");
    expect((await clusters(target)).map((c) => c.name)).toEqual(["in-flight", "legacy"]);
  });

  it("save leaves the file as it was when the write fails midway (a file size limit, like a full disk)", async () => {
    const file = existingFile("an older save");
    const run = await command(["save", file, "--url", target.url], { fileSizeLimitKb: 1 });
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toMatch(new RegExp(`^clusterform-local: cannot write ${file}, left as it was: EFBIG: file too large`));
    expect(fs.readFileSync(file, "utf8")).toBe("an older save");
    expect(fs.readdirSync(path.dirname(file))).toEqual(["saved.json"]);
  });

  it.each<[string, (res: http.ServerResponse) => void, string]>([
    [
      "an answer cut short",
      (res) => {
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": 1000 });
        // Dropped once the client has had time to read the start: a plane gone midway.
        res.write('{"format":"clusterform-local-state","version":1,"tables":{', () => setTimeout(() => res.destroy(), 300));
      },
      "stopped answering GET /_local/state midway",
    ],
    [
      "an answer that is not a saved plane",
      (res) => {
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end("<html>another server</html>");
      },
      "/_local/state did not answer a whole saved plane, so nothing was written: not JSON",
    ],
  ])("save leaves the file as it was on %s", async (_label, answer, message) => {
    const server = http.createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const file = existingFile("an older save");
      const run = await command(["save", file, "--url", `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`]);
      expect([run.code, run.stdout]).toEqual([1, ""]);
      expect(run.stderr).toContain(message);
      expect(fs.readFileSync(file, "utf8")).toBe("an older save");
      expect(fs.readdirSync(path.dirname(file))).toEqual(["saved.json"]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

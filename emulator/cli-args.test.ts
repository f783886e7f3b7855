import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_AUDIT_RETENTION } from "./audit";
import { parseCliArgs, USAGE, UsageError } from "./cli-args";

describe("parseCliArgs", () => {
  it("uses the documented defaults", () => {
    expect(parseCliArgs([])).toEqual({
      kind: "start",
      pidFile: path.join(".clusterform-data", "clusterform-local.pid"),
      options: { port: 9020, host: "127.0.0.1", dataDir: "./.clusterform-data", timeScale: 1, auditRetention: DEFAULT_AUDIT_RETENTION, platformOptions: {}, kubernetes: false, console: true },
    });
  });

  it("reads every flag", () => {
    const argv = ["--port", "0", "--host", "0.0.0.0", "--data", "/tmp/x", "--time-scale", "0.5", "--audit-retention", "5000", "--cmassh-versions", "1.31.6, 1.32.3", "--kubernetes", "--pid-file", "/run/cf.pid"];
    expect(parseCliArgs(argv)).toEqual({
      kind: "start",
      pidFile: "/run/cf.pid",
      options: {
        port: 0,
        host: "0.0.0.0",
        dataDir: "/tmp/x",
        timeScale: 0.5,
        auditRetention: 5000,
        platformOptions: { cmassh: { versions: ["1.31.6", "1.32.3"] } },
        kubernetes: true,
        console: true,
      },
    });
  });

  it("reads the seed file, the chaos seed and --no-console", () => {
    const { options } = parseCliArgs(["--seed", "world.yaml", "--chaos-seed", "42", "--no-console"]) as unknown as { options: Record<string, unknown> };
    expect(options).toMatchObject({ seedFile: "world.yaml", chaosSeed: 42, console: false });
  });

  it.each([
    [["save", "out.json"], { kind: "save", url: "http://127.0.0.1:9020", file: "out.json" }],
    [["load", "in.json", "--url", "http://127.0.0.1:4000/"], { kind: "load", url: "http://127.0.0.1:4000", file: "in.json" }],
    [["reset", "--url", "http://localhost:9"], { kind: "reset", url: "http://localhost:9" }],
  ])("reads the state command %j", (argv, expected) => {
    expect(parseCliArgs(argv)).toEqual(expected);
  });

  it("lists every platform's flags in the usage text", () => {
    expect(USAGE).toMatch(/--cmassh-versions <value> +Kubernetes versions offered for cma-ssh upgrades/);
    expect(USAGE).toMatch(/--time-scale <x> +multiply every simulated duration/);
    expect(USAGE).toMatch(/--kubernetes +a real kube-apiserver behind every cma-ssh cluster and vcluster/);
    expect(USAGE).toMatch(/--audit-retention <entries> +keep the newest n audit entries, deleting older ones in batches \(default 100000\)/);
  });

  it("recognises --help", () => {
    expect(parseCliArgs(["--help"])).toEqual({ kind: "help" });
    expect(parseCliArgs(["stop", "--help"])).toEqual({ kind: "help" });
  });

  it("writes the pid file into the data folder unless --pid-file says otherwise", () => {
    expect(parseCliArgs(["--data", "/tmp/x"])).toMatchObject({ kind: "start", pidFile: path.join("/tmp/x", "clusterform-local.pid") });
  });

  it.each<[string[], string]>([
    [["stop"], path.join(".clusterform-data", "clusterform-local.pid")],
    [["stop", "--data", "/tmp/x"], path.join("/tmp/x", "clusterform-local.pid")],
    [["stop", "--pid-file", "/run/cf.pid"], "/run/cf.pid"],
  ])("%j stops the plane that %s names", (argv, pidFile) => {
    expect(parseCliArgs(argv)).toEqual({ kind: "stop", pidFile });
  });

  it("documents stop in the usage text", () => {
    expect(USAGE).toContain("clusterform-local stop [--pid-file <path> | --data <dir>]");
    expect(USAGE).toMatch(/--pid-file <path> +file holding the plane's process id, written once listening, removed on a clean exit \(default <data>\/clusterform-local\.pid\)/);
  });

  it.each([
    [["--port", "99999"], 'invalid value "99999" for --port: expected an integer from 0 to 65535'],
    [["--port", "abc"], 'invalid value "abc" for --port'],
    [["--port", ""], 'invalid value "" for --port'],
    [["--time-scale=-1"], 'invalid value "-1" for --time-scale: expected a number >= 0'],
    [["--time-scale", "-1"], "--time-scale"],
    [["--port"], "--port"],
    [["--cmassh-versions", "1.31.6,latest"], '--cmassh-versions: invalid version "latest"'],
    [["--data", ""], 'invalid value "" for --data'],
    [["--audit-retention", "0"], 'invalid value "0" for --audit-retention: expected an integer >= 1'],
    [["--audit-retention", "-5"], "--audit-retention"],
    [["--audit-retention", "2.5"], 'invalid value "2.5" for --audit-retention: expected an integer >= 1'],
    [["--audit-retention", "lots"], 'invalid value "lots" for --audit-retention'],
    [["--audit-retention", ""], 'invalid value "" for --audit-retention'],
    [["--colour"], "--colour"],
    [["stray"], "stray"],
    [["save"], "save takes one file, got none"],
    [["load", "a", "b"], 'load takes one file, got "a", "b"'],
    [["reset", "x"], 'reset takes no file, got "x"'],
    [["save", "f", "--url", "127.0.0.1:9020"], 'invalid value "127.0.0.1:9020" for --url'],
    [["--chaos-seed=-1"], 'invalid value "-1" for --chaos-seed'],
    [["--chaos-seed", "4294967296"], 'invalid value "4294967296" for --chaos-seed: expected an integer from 0 to 4294967295'],
    [["--seed", ""], 'invalid value "" for --seed'],
    [["stop", "--port", "9020"], "stop: Unknown option '--port'"],
    [["stop", "--pid-file", "a.pid", "--data", "d"], "stop: give --pid-file or --data, not both"],
    [["stop", "--pid-file", ""], 'invalid value "" for --pid-file'],
    [["--pid-file", ""], 'invalid value "" for --pid-file'],
  ])("rejects %j", (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(UsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});

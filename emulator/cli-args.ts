import { parseArgs } from "node:util";
import type { PlatformFlag, PlatformModule } from "./platform";
import { DEFAULT_AUDIT_RETENTION } from "./audit";
import { defaultPidFile, PID_FILE_NAME } from "./pid-file";
import { PLATFORMS } from "./platforms";
import type { LocalControlPlaneOptions } from "./server";

const COMMON_FLAGS: readonly [string, string][] = [
  ["--port <n>", "TCP port, 0 picks a free one (default 9020)"],
  ["--host <h>", "interface to bind (default 127.0.0.1)"],
  ["--data <dir>", "state directory (default ./.clusterform-data)"],
  ["--pid-file <path>", `file holding the plane's process id, written once listening, removed on a clean exit (default <data>/${PID_FILE_NAME})`],
  ["--time-scale <x>", "multiply every simulated duration by x >= 0 (default 1)"],
  ["--audit-retention <entries>", `keep the newest n audit entries, deleting older ones in batches (default ${DEFAULT_AUDIT_RETENTION})`],
  ["--kubernetes", "a real kube-apiserver behind every cma-ssh cluster and vcluster (needs the set-up's binaries; default off)"],
  ["--seed <file>", "objects that exist from the start: a YAML or JSON seed file (docs/local-plane.md#seeds)"],
  ["--no-console", "do not serve the web console at / (default: served)"],
  ["--chaos-seed <n>", "seed of the random source of probabilistic faults, 0 to 4294967295 (default: random, shown by GET /_local/faults)"],
];

const STATE_COMMANDS: readonly [string, string][] = [
  ["save <file> [--url <u>]", "write the running plane's whole state to a file (default url http://127.0.0.1:9020)"],
  ["load <file> [--url <u>]", "replace the running plane's state with a saved one"],
  ["reset [--url <u>]", "empty the running plane (then what a fresh start has: defaults, the seed file)"],
];

function usage(platforms: readonly PlatformModule[]): string {
  const lines: [string, string][] = [
    ...COMMON_FLAGS,
    ...platforms.flatMap((m) => (m.flags ?? []).map((f): [string, string] => [`--${f.name} <value>`, f.help])),
    ["--help", "show this help"],
  ];
  const width = Math.max(...[...lines, ...STATE_COMMANDS].map(([flag]) => flag.length)) + 2;
  const table = (rows: readonly [string, string][]) => rows.map(([flag, help]) => `  ${flag.padEnd(width)}${help}`);
  return [
    "Usage: clusterform-local [options]          start the plane",
    "       clusterform-local stop [--pid-file <path> | --data <dir>]",
    "                                            stop the plane that pid file names (SIGTERM), waiting until it has exited",
    "       clusterform-local save|load|reset ...",
    "",
    "Options:",
    ...table(lines),
    "",
    "Commands to a running plane:",
    ...table(STATE_COMMANDS),
  ].join("\n");
}

/** Usage text printed with `--help` and after a flag error. */
export const USAGE = usage(PLATFORMS);

/** Thrown for a bad command line; the message names the flag, the value and what is allowed. */
export class UsageError extends Error {}

/** What the command line asks for. */
export type CliCommand =
  | { kind: "help" }
  | {
      kind: "start";
      options: LocalControlPlaneOptions;
      /** Where the plane writes its process id once listening. */
      pidFile: string;
    }
  | {
      kind: "stop";
      /** The pid file naming the plane to stop. */
      pidFile: string;
    }
  | { kind: "save" | "load"; url: string; file: string }
  | { kind: "reset"; url: string };


/** The plane the state commands talk to unless `--url` says otherwise. */
export const DEFAULT_PLANE_URL = "http://127.0.0.1:9020";

function parseStateCommand(kind: "save" | "load" | "reset", argv: readonly string[]): CliCommand {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: true; options: { url: { type: "string" } } }>>;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: { url: { type: "string" } } });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const url = parsed.values.url ?? DEFAULT_PLANE_URL;
  if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new UsageError(`invalid value "${url}" for --url: expected the plane's base URL, e.g. ${DEFAULT_PLANE_URL}`);
  const base = url.replace(/\/$/, "");
  const files = parsed.positionals;
  if (kind === "reset") {
    if (files.length > 0) throw new UsageError(`reset takes no file, got "${files[0]}"`);
    return { kind, url: base };
  }
  if (files.length !== 1 || files[0] === "") throw new UsageError(`${kind} takes one file, got ${files.length === 0 ? "none" : files.map((f) => `"${f}"`).join(", ")}`);
  return { kind, url: base, file: files[0] };
}

type Flags = Record<string, string | boolean | undefined>;

/** Each numeric flag's parser: returns the number or throws a {@link UsageError}. */
const NUMBER_FLAGS: Readonly<Record<string, { allowed: string; accepts: (n: number) => boolean }>> = {
  port: { allowed: "an integer from 0 to 65535", accepts: (n) => Number.isInteger(n) && n >= 0 && n <= 65535 },
  "time-scale": { allowed: "a number >= 0", accepts: (n) => Number.isFinite(n) && n >= 0 },
  "audit-retention": { allowed: "an integer >= 1", accepts: (n) => Number.isSafeInteger(n) && n >= 1 },
  "chaos-seed": { allowed: "an integer from 0 to 4294967295", accepts: (n) => Number.isInteger(n) && n >= 0 && n <= 2 ** 32 - 1 },
};

function numberFlag(flags: Flags, name: string): number | undefined {
  const raw = flags[name];
  if (typeof raw !== "string") return undefined;
  const value = Number(raw);
  if (raw.trim() === "" || !NUMBER_FLAGS[name].accepts(value)) {
    throw new UsageError(`invalid value "${raw}" for --${name}: expected ${NUMBER_FLAGS[name].allowed}`);
  }
  return value;
}

function platformFlag(flag: PlatformFlag, raw: string): unknown {
  try {
    return flag.parse(raw);
  } catch (error) {
    throw new UsageError(`--${flag.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Each platform's options from its flags; platforms given no flag are left out. */
function platformOptions(flags: Flags): Record<string, Record<string, unknown>> {
  const options: Record<string, Record<string, unknown>> = {};
  for (const module of PLATFORMS) {
    for (const flag of module.flags ?? []) {
      const raw = flags[flag.name];
      if (typeof raw !== "string") continue;
      options[module.api] = { ...options[module.api], [flag.option]: platformFlag(flag, raw) };
    }
  }
  return options;
}

function nonEmpty(flags: Flags, name: string, fallback: string): string {
  const value = flags[name];
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`invalid value "" for --${name}: expected a non-empty string`);
  return value;
}

/** `stop [--pid-file <path> | --data <dir>]`: the pid file to read. */
function parseStop(argv: readonly string[]): CliCommand {
  let flags: Flags;
  try {
    flags = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: { "pid-file": { type: "string" }, data: { type: "string" }, help: { type: "boolean" } },
    }).values;
  } catch (error) {
    throw new UsageError(`stop: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (flags.help) return { kind: "help" };
  if (flags["pid-file"] !== undefined && flags.data !== undefined) {
    throw new UsageError("stop: give --pid-file or --data, not both (--data means <data>/" + PID_FILE_NAME + ")");
  }
  return { kind: "stop", pidFile: nonEmpty(flags, "pid-file", defaultPidFile(nonEmpty(flags, "data", "./.clusterform-data"))) };
}

/** Parses the command line (without `node` and the script path). */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const [first, ...rest] = argv;
  if (first === "stop") return parseStop(rest);
  if (first === "save" || first === "load" || first === "reset") return parseStateCommand(first, rest);
  let flags: Flags;
  try {
    flags = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        data: { type: "string" },
        "pid-file": { type: "string" },
        "time-scale": { type: "string" },
        "audit-retention": { type: "string" },
        kubernetes: { type: "boolean" },
        "chaos-seed": { type: "string" },
        seed: { type: "string" },
        "no-console": { type: "boolean" },
        ...Object.fromEntries(PLATFORMS.flatMap((m) => (m.flags ?? []).map((f) => [f.name, { type: "string" as const }]))),
        help: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (flags.help) return { kind: "help" };
  const dataDir = nonEmpty(flags, "data", "./.clusterform-data");
  return {
    kind: "start",
    pidFile: nonEmpty(flags, "pid-file", defaultPidFile(dataDir)),
    options: {
      port: numberFlag(flags, "port") ?? 9020,
      host: nonEmpty(flags, "host", "127.0.0.1"),
      dataDir,
      timeScale: numberFlag(flags, "time-scale") ?? 1,
      auditRetention: numberFlag(flags, "audit-retention") ?? DEFAULT_AUDIT_RETENTION,
      platformOptions: platformOptions(flags),
      kubernetes: flags.kubernetes === true,
      chaosSeed: numberFlag(flags, "chaos-seed"),
      seedFile: flags.seed === undefined ? undefined : nonEmpty(flags, "seed", ""),
      console: flags["no-console"] !== true,
    },
  };
}

import { parseArgs } from "node:util";
import { parseVersion } from "./cmassh/versions";
import type { LocalControlPlaneOptions } from "./server";

/** Usage text printed with `--help` and after a flag error. */
export const USAGE = `Usage: clusterform-local [options]

Options:
  --port <n>                    TCP port, 0 picks a free one (default 9020)
  --host <h>                    interface to bind (default 127.0.0.1)
  --data <dir>                  state directory (default ./.clusterform-data)
  --time-scale <x>              multiply every simulated duration by x >= 0 (default 1)
  --cmassh-versions <a,b,...>   Kubernetes versions offered for cma-ssh upgrades (x.y.z)
  --help                        show this help`;

/** Thrown for a bad command line; the message names the flag, the value and what is allowed. */
export class UsageError extends Error {}

/** What the command line asks for. */
export type CliCommand = { kind: "help" } | { kind: "start"; options: LocalControlPlaneOptions };

type Flags = Record<string, string | boolean | undefined>;

/** Each numeric flag's parser: returns the number or throws a {@link UsageError}. */
const NUMBER_FLAGS: Readonly<Record<string, { allowed: string; accepts: (n: number) => boolean }>> = {
  port: { allowed: "an integer from 0 to 65535", accepts: (n) => Number.isInteger(n) && n >= 0 && n <= 65535 },
  "time-scale": { allowed: "a number >= 0", accepts: (n) => Number.isFinite(n) && n >= 0 },
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

function versionsFlag(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const versions = raw.split(",").map((v) => v.trim());
  const bad = versions.find((v) => parseVersion(v) === undefined);
  if (bad !== undefined) {
    throw new UsageError(`invalid version "${bad}" in --cmassh-versions: expected a comma-separated list of x.y.z, e.g. 1.31.6,1.32.3`);
  }
  return versions;
}

function nonEmpty(flags: Flags, name: string, fallback: string): string {
  const value = flags[name];
  if (value === undefined) return fallback;
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`invalid value "" for --${name}: expected a non-empty string`);
  return value;
}

/** Parses the command line (without `node` and the script path). */
export function parseCliArgs(argv: readonly string[]): CliCommand {
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
        "time-scale": { type: "string" },
        "cmassh-versions": { type: "string" },
        help: { type: "boolean" },
      },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (flags.help) return { kind: "help" };
  return {
    kind: "start",
    options: {
      port: numberFlag(flags, "port") ?? 9020,
      host: nonEmpty(flags, "host", "127.0.0.1"),
      dataDir: nonEmpty(flags, "data", "./.clusterform-data"),
      timeScale: numberFlag(flags, "time-scale") ?? 1,
      cmasshVersions: versionsFlag(flags["cmassh-versions"] as string | undefined),
    },
  };
}

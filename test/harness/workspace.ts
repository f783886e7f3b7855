import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot, workDir } from "./paths";

/** The exact @pulumi/pulumi version programs install: the one the package is built and tested with. */
export const PULUMI_SDK_VERSION: string = require("@pulumi/pulumi/package.json").version;

/**
 * Packs a package folder with `npm pack` into .work/pack and renames the tarball to `<as>.tgz`, so
 * programs install a copy exactly as users get it from a registry (never a symlink: Pulumi's
 * serializer only turns modules under node_modules into `require()` calls).
 */
export function packPackage(dir: string, as: string): string {
  const dest = path.join(workDir(), "pack");
  mkdirSync(dest, { recursive: true });
  // The e2e global setup has just built: skip the package's own prepack build.
  const out = execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", dest, dir], { encoding: "utf8" });
  const produced = path.join(dest, out.trim().split("\n").pop() ?? "");
  const target = path.join(dest, `${as}.tgz`);
  renameSync(produced, target);
  return target;
}

/** The tarball of this repository's package, packed by the e2e global setup. */
export function clusterformTarball(): string {
  const tarball = path.join(workDir(), "pack", "clusterform.tgz");
  if (!existsSync(tarball)) {
    throw new Error(`${tarball} is missing: the e2e global setup packs it (run through vitest's e2e project)`);
  }
  return tarball;
}

/**
 * Creates (or refreshes) a folder whose node_modules holds @pulumi/pulumi and the given tarballs,
 * installed the way a user installs packages. Programs copied below it resolve those modules.
 * @param pulumiVersion - the @pulumi/pulumi the program uses. @default {@link PULUMI_SDK_VERSION}
 */
export function installWorkspace(name: string, tarballs: Record<string, string>, pulumiVersion = PULUMI_SDK_VERSION): string {
  const dir = path.join(workDir(), "workspaces", name);
  mkdirSync(dir, { recursive: true });
  // Test files run in parallel and several share a workspace: one installs, the others wait.
  return withLock(`${dir}.lock`, () => install(dir, tarballs, pulumiVersion));
}

/**
 * The workspace of every program that needs only the packed package (and the @pulumi/pulumi it is
 * tested with, or `pulumiVersion`): one npm install per run for all the files that use it. The
 * tarball is packed once per run and the workspace is only read while programs run (each program
 * is copied into a folder of its own below it), so files running side by side can share it.
 */
export function packageWorkspace(pulumiVersion = PULUMI_SDK_VERSION): string {
  const name = pulumiVersion === PULUMI_SDK_VERSION ? "clusterform" : `clusterform-pulumi-${pulumiVersion}`;
  return installWorkspace(name, { clusterform: clusterformTarball() }, pulumiVersion);
}

/** How long a workspace lock may be held before it counts as left behind by a killed run. */
const STALE_LOCK_MS = 10 * 60_000;

/** Runs `fn` while holding the lock folder `lock` (mkdir is atomic), waiting for another holder. */
function withLock<T>(lock: string, fn: () => T): T {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function install(dir: string, tarballs: Record<string, string>, pulumiVersion: string): string {
  // Reinstalling costs seconds; skip it when the very same tarballs are installed already.
  const stampFile = path.join(dir, ".installed");
  const stamp = [`@pulumi/pulumi=${pulumiVersion}`]
    .concat(Object.entries(tarballs).map(([pkg, tarball]) => `${pkg}=${createHash("sha256").update(readFileSync(tarball)).digest("hex")}`))
    .join("\n");
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return dir;
  // A tarball's integrity changes with every pack; forget the old lock so npm takes the new one.
  rmSync(path.join(dir, "package-lock.json"), { force: true });
  for (const pkg of Object.keys(tarballs)) rmSync(path.join(dir, "node_modules", pkg), { recursive: true, force: true });
  rmSync(path.join(dir, "node_modules", "@pulumi", "pulumi"), { recursive: true, force: true });
  const dependencies: Record<string, string> = { "@pulumi/pulumi": pulumiVersion };
  for (const [pkg, tarball] of Object.entries(tarballs)) dependencies[pkg] = `file:${tarball}`;
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `ws-${path.basename(dir)}`, private: true, dependencies }, null, 2));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  writeFileSync(stampFile, stamp);
  return dir;
}

/** Copies the program `test/e2e/programs/<program>` into a fresh folder of the workspace. */
export function copyProgram(workspace: string, program: string): string {
  const source = path.join(repoRoot(), "test", "e2e", "programs", program);
  const dest = mkdtempSync(path.join(workspace, `${program}-`));
  for (const entry of readdirSync(source)) cpSync(path.join(source, entry), path.join(dest, entry), { recursive: true });
  return dest;
}

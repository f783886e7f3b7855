import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
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
 * Workspaces asking for the same packages share one install (`.work/workspaces/.installs/<hash>`,
 * their node_modules a link to it): a fresh clone's run installs each set of packages once, not
 * once per test file.
 * @param pulumiVersion - the @pulumi/pulumi the program uses. @default {@link PULUMI_SDK_VERSION}
 */
export function installWorkspace(name: string, tarballs: Record<string, string>, pulumiVersion = PULUMI_SDK_VERSION): string {
  const root = path.join(workDir(), "workspaces");
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  const stamp = [`@pulumi/pulumi=${pulumiVersion}`]
    .concat(Object.entries(tarballs).map(([pkg, tarball]) => `${pkg}=${createHash("sha256").update(readFileSync(tarball)).digest("hex")}`))
    .join("\n");
  const shared = path.join(root, ".installs", createHash("sha256").update(stamp).digest("hex").slice(0, 16));
  mkdirSync(shared, { recursive: true });
  // Test files run in parallel and several share an install: one installs, the others wait.
  withLock(`${shared}.lock`, () => install(shared, tarballs, pulumiVersion, stamp));
  linkModules(dir, path.join(shared, "node_modules"));
  return dir;
}

/**
 * Deletes the shared installs of earlier runs, those without the package packed now (its sha256
 * `current`): each holds a full node_modules. Called before any test file starts.
 */
export function removeStaleInstalls(current: string): void {
  const installs = path.join(workDir(), "workspaces", ".installs");
  if (!existsSync(installs)) return;
  for (const entry of readdirSync(installs)) {
    const stampFile = path.join(installs, entry, ".installed");
    const stamp = existsSync(stampFile) ? readFileSync(stampFile, "utf8") : "";
    if (!stamp.includes(`clusterform=${current}`)) rmSync(path.join(installs, entry), { recursive: true, force: true });
  }
}

/** Points `dir`'s node_modules at `modules` (replacing an older install or link there). */
function linkModules(dir: string, modules: string): void {
  const link = path.join(dir, "node_modules");
  try {
    if (readlinkSync(link) === modules) return;
  } catch {
    // Not a link (a folder of an older layout) or absent.
  }
  rmSync(link, { recursive: true, force: true });
  try {
    symlinkSync(modules, link, "dir");
  } catch (err) {
    // Another file of the run linked it meanwhile, to the same install.
    if ((err as NodeJS.ErrnoException).code !== "EEXIST" || readlinkSync(link) !== modules) throw err;
  }
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

function install(dir: string, tarballs: Record<string, string>, pulumiVersion: string, stamp: string): void {
  // Installing costs seconds; skip it when the very same tarballs are installed already.
  const stampFile = path.join(dir, ".installed");
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return;
  const dependencies: Record<string, string> = { "@pulumi/pulumi": pulumiVersion };
  for (const [pkg, tarball] of Object.entries(tarballs)) dependencies[pkg] = `file:${tarball}`;
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `ws-${path.basename(dir)}`, private: true, dependencies }, null, 2));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
  });
  writeFileSync(stampFile, stamp);
}

/** Copies the program `test/e2e/programs/<program>` into a fresh folder of the workspace. */
export function copyProgram(workspace: string, program: string): string {
  const source = path.join(repoRoot(), "test", "e2e", "programs", program);
  const dest = mkdtempSync(path.join(workspace, `${program}-`));
  for (const entry of readdirSync(source)) cpSync(path.join(source, entry), path.join(dest, entry), { recursive: true });
  return dest;
}

import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { platformName, runsHere, TARGETS } from "../../tools/release/node-binaries";
import { buildRelease, type ReleaseSummary } from "../../tools/release/release";
import { KEY_ENV } from "../../tools/release/signing";
import { testRunMarker } from "./engine";
import { repoRoot, workDir } from "./paths";
import { type ThrowawayKey, throwawaySigningKey } from "./signing-key";

/** A release built from the working tree for the tests: the files users would download. */
export interface TestRelease {
  /** The release folder (`npm run release`'s dist/release, here under .work). */
  dir: string;
  version: string;
  summary: ReleaseSummary;
  /** The GnuPG home of the throwaway key that signed it. */
  keyHome: string;
}

/** The platform the tests install on: this machine's. */
export function hostPlatform(): string {
  const host = TARGETS.find(runsHere);
  if (!host) throw new Error(`no release platform runs on ${process.platform}/${process.arch}`);
  return platformName(host);
}

/**
 * Builds a release once per test run (test files share it; the first builds, the others wait),
 * for this machine's platform, signed with a throwaway key, its file times from the commit.
 * `name` keeps a second, independent build apart (the reproducibility test).
 */
export async function testRelease(name = "release"): Promise<TestRelease> {
  const base = path.join(workDir(), "test-release", name);
  const marker = path.join(base, ".built-for");
  mkdirSync(path.dirname(base), { recursive: true });
  const built = () => existsSync(marker) && readFileSync(marker, "utf8") === testRunMarker();
  if (!built()) {
    // One builder per name: the lock is a folder (mkdir is atomic), the build itself async.
    await withLockAsync(`${base}.lock`, async () => {
      if (built()) return;
      rmSync(base, { recursive: true, force: true });
      mkdirSync(base, { recursive: true });
      const key = await testSigningKey();
      const version = (JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as { version: string }).version;
      const summary = await buildRelease({
        root: repoRoot(),
        out: path.join(base, "dist"),
        work: path.join(base, "work"),
        version,
        commit: "test",
        time: Number(process.env.SOURCE_DATE_EPOCH ?? 1_764_000_000),
        targets: TARGETS.filter(runsHere),
        signingEnv: { [KEY_ENV]: key.secretKey },
      });
      writeFileSync(path.join(base, "summary.json"), JSON.stringify({ summary, keyHome: key.home, version }));
      writeFileSync(marker, testRunMarker());
    });
  }
  const { summary, keyHome, version } = JSON.parse(readFileSync(path.join(base, "summary.json"), "utf8"));
  return { dir: path.join(base, "dist"), version, summary, keyHome };
}

/**
 * The throwaway key every release of this test run is signed with (made once, kept under .work), so
 * two builds of one commit can be compared byte for byte.
 */
async function testSigningKey(): Promise<ThrowawayKey> {
  const file = path.join(workDir(), "test-release", "signing-key.json");
  const current = () => {
    if (!existsSync(file)) return undefined;
    const saved = JSON.parse(readFileSync(file, "utf8")) as ThrowawayKey & { run: string };
    return saved.run === testRunMarker() && existsSync(saved.home) ? saved : undefined;
  };
  if (!current()) {
    await withLockAsync(`${file}.lock`, async () => {
      if (!current()) writeFileSync(file, JSON.stringify({ ...throwawaySigningKey(), run: testRunMarker() }), { mode: 0o600 });
    });
  }
  return current()!;
}

/** How long a build lock may stand before it counts as left by a killed run. */
const STALE_LOCK_MS = 15 * 60_000;

/** Runs `fn` holding the lock folder `lock` (mkdir is atomic), waiting while another holds it. */
async function withLockAsync(lock: string, fn: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * A folder of commands for the engine side of a user's machine without Node: links to the given
 * executables and to the few system tools the engines call, and nothing else, so `node` is not on
 * a PATH made of it alone.
 */
export function toolsWithoutNode(dir: string, tools: Record<string, string>): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const system = ["sh", "bash", "env", "uname", "cat", "ls", "mkdir", "rm", "git", "tar", "gzip", "id"];
  for (const name of system) {
    const found = ["/usr/bin", "/bin"].map((d) => path.join(d, name)).find(existsSync);
    if (found) symlinkSync(found, path.join(dir, name));
  }
  for (const [name, target] of Object.entries(tools)) symlinkSync(target, path.join(dir, name));
  return dir;
}

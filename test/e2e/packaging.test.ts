import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, workDir } from "../harness/paths";

const npm = (args: string[], cwd: string) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** Versions as numbers, for ordering without a semver library. */
const parts = (v: string) => v.split(".").map(Number);
const newer = (a: string, b: string) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};

describe("the package as users get it", () => {
  let tarball: string;

  it("is built by `npm pack` on a fresh clone, and ships dist/ without tests", () => {
    const clone = mkdtempSync(path.join(workDir(), "clone-"));
    execFileSync("git", ["clone", "--quiet", repoRoot(), clone]);
    expect(existsSync(path.join(clone, "dist"))).toBe(false);
    // A fresh clone after `npm install`: the repository's own node_modules serve.
    symlinkSync(path.join(repoRoot(), "node_modules"), path.join(clone, "node_modules"));
    const dest = mkdtempSync(path.join(workDir(), "packed-"));
    const [packed] = JSON.parse(npm(["pack", "--json", "--pack-destination", dest], clone)) as {
      filename: string;
      files: { path: string }[];
    }[];
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(["dist/sdk/index.js", "dist/sdk/index.d.ts", "dist/provider/index.js", "dist/emulator/cli.js"]));
    expect(files.filter((f) => /\.test\.|\/test\//.test(f))).toEqual([]);
    tarball = path.join(dest, packed.filename);
    expect(existsSync(tarball)).toBe(true);
  }, 300_000);

  it("installs next to the newest @pulumi/pulumi 3.x without --legacy-peer-deps", () => {
    const versions = JSON.parse(npm(["view", "@pulumi/pulumi", "versions", "--json"], workDir())) as string[];
    const newest = versions.filter((v) => /^3\.\d+\.\d+$/.test(v)).reduce((a, b) => (newer(b, a) ? b : a));
    const range = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")).peerDependencies["@pulumi/pulumi"];
    expect(range).toMatch(/^>=3\.\d+\.\d+ <4\.0\.0$/);
    const app = mkdtempSync(path.join(workDir(), "app-"));
    writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true }));
    // npm refuses an unsatisfied peer (ERESOLVE, exit code 1) unless told to ignore it.
    const out = npm(["install", "--dry-run", "--no-audit", "--no-fund", "--ignore-scripts", tarball, `@pulumi/pulumi@${newest}`], app);
    expect(out).toMatch(/added \d+ packages/);
  }, 300_000);
});

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { pluginTarballName } from "../../tools/release/pulumi";
import { tfNames } from "../../tools/release/terraform";
import { treeArchiveName } from "../../tools/release/trees";
import { type TestRelease, testRelease } from "../harness/release";

/** Every file under `dir` (relative path -> SHA-256). */
function tree(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(full).isDirectory()) Object.assign(out, tree(full, rel));
    else out[rel] = createHash("sha256").update(readFileSync(full)).digest("hex");
  }
  return out;
}

/**
 * The files that may differ between two builds, and only because they hold or list an executable
 * made with a V8 startup snapshot (which records values of the process that made it): that
 * platform's zip and tarball, the registry's and mirror's answers naming their hashes (and the
 * archives of those folders), the checksum files and the signature.
 */
function snapshotDependents(release: TestRelease): Set<string> {
  const { version } = release;
  const platforms = [...new Set(release.summary.executables.filter((e) => e.startMode === "snapshot").map((e) => e.platform))];
  if (platforms.length === 0) return new Set();
  const files = [tfNames.sums(version), `${tfNames.sums(version)}.sig`, `clusterform_${version}_SHA256SUMS`, `mirror/registry.opentofu.org/clusterform/clusterform/${version}.json`];
  // The archives that carry those answers to the GitHub release.
  files.push(treeArchiveName(version, "registry"), treeArchiveName(version, "mirror"));
  for (const platform of platforms) {
    const [os, arch] = platform.split("_") as ["linux", "amd64"];
    files.push(tfNames.zip(version, { os, arch }), pluginTarballName(version, { os, arch }), `registry/v1/providers/clusterform/clusterform/${version}/download/${os}/${arch}`);
  }
  return new Set(files);
}

/** Byte positions at which two equally long files differ (undefined when the lengths differ). */
function differingBytes(a: string, b: string): number | undefined {
  const [x, y] = [readFileSync(a), readFileSync(b)];
  if (x.length !== y.length) return undefined;
  let n = 0;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) n++;
  return n;
}

/**
 * Two independent builds of the release from one commit (each its own work folder, bundles, blobs,
 * generated SDKs), signed with one key.
 */
describe("the release is reproducible", () => {
  it("writes the same bytes in two builds from one commit, but for the few bytes a startup snapshot records of the process that made it", async () => {
    const [first, second] = [await testRelease(), await testRelease("release-again")];
    const a = tree(first.dir);
    const b = tree(second.dir);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    const differing = Object.keys(a).filter((f) => a[f] !== b[f]);
    const allowed = snapshotDependents(first);
    expect(differing.filter((f) => !allowed.has(f))).toEqual([]);
    // Within a snapshot executable: a handful of bytes (the maker's process id and the like), never
    // a different size or a different program.
    for (const e of first.summary.executables.filter((x) => x.startMode === "snapshot")) {
      const rel = path.join("sea", `${e.program}-${e.platform}`, e.program);
      const n = differingBytes(path.join(first.dir, "..", "work", rel), path.join(second.dir, "..", "work", rel));
      expect({ executable: rel, differingBytes: n !== undefined && n <= 64 }).toEqual({ executable: rel, differingBytes: true });
    }
    // The checksum list covers every asset at the release's top level but itself and release.json.
    const sumsFile = `clusterform_${first.version}_SHA256SUMS`;
    const listed = readFileSync(path.join(first.dir, sumsFile), "utf8").trim().split("\n").map((l) => l.split("  ")[1]);
    const assets = Object.keys(a).filter((f) => !f.includes("/") && f !== "release.json" && f !== sumsFile);
    expect(listed).toEqual(assets);
  });
});

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { testRelease } from "../harness/release";

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
 * Two independent builds of the release from one commit (each its own work folder, bundles, blobs,
 * generated SDKs), signed with one key: every file is the same, the checksum lists included.
 */
describe("the release is reproducible", () => {
  it("writes the same bytes in two builds from one commit: executables, archives, SDK packages, sums, signature, registry, mirror and module-proxy trees", async () => {
    const [first, second] = [await testRelease(), await testRelease("release-again")];
    const a = tree(first.dir);
    const b = tree(second.dir);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    const differing = Object.keys(a).filter((f) => a[f] !== b[f]);
    expect(differing).toEqual([]);
    // The checksum list covers every asset at the release's top level but itself and release.json.
    const sumsFile = `clusterform_${first.version}_SHA256SUMS`;
    const listed = readFileSync(path.join(first.dir, sumsFile), "utf8").trim().split("\n").map((l) => l.split("  ")[1]);
    const assets = Object.keys(a).filter((f) => !f.includes("/") && f !== "release.json" && f !== sumsFile);
    expect(listed).toEqual(assets);
  });
});

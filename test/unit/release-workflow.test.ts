import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { KEY_ENV, PASSPHRASE_ENV } from "../../tools/release/signing";
import { treeArchiveName, writeTreeArchives } from "../../tools/release/trees";
import { repoRoot } from "../harness/paths";
import { assembleFromAssets } from "../harness/release-assets";

interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}

const workflow = parse(readFileSync(path.join(repoRoot(), ".github", "workflows", "release.yml"), "utf8")) as {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
};
const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
const upload = steps.find((s) => s.run?.includes("gh release create"));

/** Every file under `dir` (relative path -> SHA-256). */
function files(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(full).isDirectory()) Object.assign(out, files(full, rel));
    else out[rel] = createHash("sha256").update(readFileSync(full)).digest("hex");
  }
  return out;
}

/**
 * Runs the upload step's script as GitHub's runner runs a `run:` (bash -eo pipefail) in `cwd`, for
 * the tag v0.2.0, with a `gh` that records its arguments and the release notes instead of publishing.
 */
function runUpload(cwd: string): { status: number | null; stderr: string; gh?: string[]; notes?: string } {
  const bin = path.join(cwd, "fake-bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, "gh"),
    '#!/bin/bash\nprintf "%s\\n" "$@" > "$GH_ARGS"\nwhile [ $# -gt 0 ]; do [ "$1" = --notes-file ] && cat "$2" > "$GH_NOTES"; shift; done\n',
  );
  chmodSync(path.join(bin, "gh"), 0o755);
  const script = path.join(cwd, "upload.sh");
  writeFileSync(script, upload!.run!);
  const record = { GH_ARGS: path.join(cwd, "gh-args"), GH_NOTES: path.join(cwd, "gh-notes") };
  rmSync(record.GH_ARGS, { force: true });
  const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
    cwd,
    encoding: "utf8",
    env: { PATH: `${bin}:${process.env.PATH}`, GITHUB_REF_NAME: "v0.2.0", GITHUB_SHA: "0123abc", GH_TOKEN: "token", ...record },
  });
  const ran = existsSync(record.GH_ARGS);
  return {
    status: result.status,
    stderr: result.stderr,
    gh: ran ? readFileSync(record.GH_ARGS, "utf8").trim().split("\n") : undefined,
    notes: ran ? readFileSync(record.GH_NOTES, "utf8") : undefined,
  };
}

/** A release folder of the layout `npm run release` writes: top-level assets, and folders (one with a dot folder, as registry/.well-known). */
function writeReleaseFolder(out: string): void {
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
    writeFileSync(path.join(out, rel), text);
  };
  put("terraform-provider-clusterform_0.2.0_linux_amd64.zip", "zip");
  put("terraform-provider-clusterform_0.2.0_SHA256SUMS", "sums");
  put("pulumi-resource-clusterform-v0.2.0-linux-amd64.tar.gz", "tarball");
  put("release.json", "{}");
  put("registry/.well-known/terraform.json", '{"providers.v1":"/v1/providers/"}');
  put("registry/v1/providers/clusterform/clusterform/versions", "{}");
  put("mirror/registry.opentofu.org/clusterform/clusterform/0.2.0.json", "{}");
  put("goproxy/github.com/clusterform/clusterform/sdk/go/@v/list", "v0.2.0\n");
}

describe("the release workflow (.github/workflows/release.yml)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cf-workflow-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("runs on version tags only, allowed to write the release", () => {
    expect(workflow.on).toEqual({ push: { tags: ["v*.*.*"] } });
    expect(workflow.permissions).toEqual({ contents: "write" });
  });

  it("builds with the same command a maintainer runs, the release set-up profile and the key from the repository's secrets", () => {
    const build = steps.find((s) => s.run?.includes("npm run release"));
    expect(build?.run?.split("\n").map((l) => l.trim()).filter(Boolean)).toEqual([". scripts/setup.sh", "npm run release"]);
    expect(build?.env).toEqual({
      CLUSTERFORM_SETUP_PROFILE: "release",
      [KEY_ENV]: `\${{ secrets.${KEY_ENV} }}`,
      [PASSPHRASE_ENV]: `\${{ secrets.${PASSPHRASE_ENV} }}`,
    });
  });

  it("checks the tag against package.json's version before it creates the tag's release", () => {
    const names = steps.map((s) => s.name ?? "");
    const check = steps.find((s) => s.run?.includes("require(\"./package.json\").version"));
    expect(check && upload).toBeTruthy();
    expect(names.indexOf(check!.name!)).toBeLessThan(names.indexOf(upload!.name!));
    expect(upload!.run).toContain('gh release create "$GITHUB_REF_NAME" --verify-tag');
  });

  it("uploads dist/release's top-level files, each folder as its archive: the assets, downloaded into one folder and the archives unpacked, are dist/release again", async () => {
    const work = path.join(dir, "published");
    const out = path.join(work, "dist", "release");
    writeReleaseFolder(out);
    const trees = await writeTreeArchives(out, "0.2.0", 1_764_000_000);
    expect(trees).toEqual({ goproxy: treeArchiveName("0.2.0", "goproxy"), mirror: treeArchiveName("0.2.0", "mirror"), registry: treeArchiveName("0.2.0", "registry") });
    const run = runUpload(work);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    const assets = run.gh!.filter((a) => a.startsWith("dist/release/"));
    expect(run.gh!.slice(0, run.gh!.length - assets.length)).toEqual(["release", "create", "v0.2.0", "--verify-tag", "--title", "v0.2.0", "--notes-file", expect.stringMatching(/^\/dev\/fd\//)]);
    expect(run.notes).toBe("Assets written by `npm run release` at 0123abc.\n");
    // Flat files only, every one of the top level, nothing from inside a folder.
    const topLevel = readdirSync(out).filter((f) => statSync(path.join(out, f)).isFile()).sort();
    expect(assets).toEqual(topLevel.map((f) => `dist/release/${f}`));
    expect(topLevel).toEqual(expect.arrayContaining(Object.values(trees)));
    const downloaded = path.join(dir, "downloaded");
    expect(assembleFromAssets(assets.map((a) => path.join(work, a)), downloaded, "0.2.0")).toEqual(["goproxy", "mirror", "registry"]);
    expect(files(downloaded)).toEqual(files(out));
  });

  it("refuses to create the release when a folder of dist/release has no archive, naming it", () => {
    const work = path.join(dir, "unarchived");
    writeReleaseFolder(path.join(work, "dist", "release"));
    const run = runUpload(work);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`dist/release/goproxy/ has no archive dist/release/${treeArchiveName("0.2.0", "goproxy")}: a GitHub release cannot hold a folder`);
    expect(run.gh).toBeUndefined();
  });
});

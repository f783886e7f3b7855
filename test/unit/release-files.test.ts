import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ArchiveEntry, sha256Sums, writeTarGz, writeZip } from "../../tools/release/archive";
import { runnerFor, runsHere, TARGETS } from "../../tools/release/node-binaries";
import { startModeFor } from "../../tools/release/sea/executable";
import { KEY_ENV, ReleaseSigner } from "../../tools/release/signing";
import { hash1, type ProviderZip, tfNames, writeMirrorTree, writeRegistryTree, writeTerraformRelease } from "../../tools/release/terraform";
import { throwawaySigningKey } from "../harness/signing-key";

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const entries: ArchiveEntry[] = [
  { name: "z-last.txt", data: Buffer.from("last\n") },
  { name: "terraform-provider-clusterform_v0.2.0", data: Buffer.from("#!/bin/sh\n"), executable: true },
];

describe("release archives", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cf-archive-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ["zip", writeZip],
    ["tar.gz", writeTarGz],
  ] as const)("writes the same %s bytes for the same entries and time, whatever their order", async (ext, write) => {
    const time = new Date(1_764_000_000_000);
    await write(path.join(dir, `a.${ext}`), entries, time);
    await write(path.join(dir, `b.${ext}`), [...entries].reverse(), time);
    await write(path.join(dir, `c.${ext}`), entries, new Date(1_764_000_100_000));
    expect(sha(path.join(dir, `a.${ext}`))).toBe(sha(path.join(dir, `b.${ext}`)));
    expect(sha(path.join(dir, `a.${ext}`))).not.toBe(sha(path.join(dir, `c.${ext}`)));
  });

  it("keeps the executable bit in a zip and names the entries in order", async () => {
    const file = path.join(dir, "modes.zip");
    await writeZip(file, entries, new Date(1_764_000_000_000));
    const listing = execFileSync("unzip", ["-Z", file], { encoding: "utf8" }).split("\n").filter((l) => /^[-d]r/.test(l));
    expect(listing.map((l) => [l.slice(0, 10), l.split(/\s+/).pop()])).toEqual([
      ["-rwxr-xr-x", "terraform-provider-clusterform_v0.2.0"],
      ["-rw-r--r--", "z-last.txt"],
    ]);
  });

  it("writes a tarball with portable headers: no owner names, the given time, 0755 for executables", async () => {
    const file = path.join(dir, "headers.tar.gz");
    await writeTarGz(file, entries, new Date(1_764_000_000_000));
    const seen: { path: string; mode?: number; uname?: string; mtime?: Date }[] = [];
    await tar.t({ file, onReadEntry: (e) => seen.push({ path: e.path, mode: e.mode, uname: e.uname, mtime: e.mtime }) });
    expect(seen.map((e) => [e.path, (e.mode ?? 0) & 0o777, e.uname ?? "", e.mtime?.getTime()])).toEqual([
      ["terraform-provider-clusterform_v0.2.0", 0o755, "", 1_764_000_000_000],
      ["z-last.txt", 0o644, "", 1_764_000_000_000],
    ]);
  });

  it("lists SHA256SUMS as sha256sum does: `<hex>  <name>`, by name", () => {
    writeFileSync(path.join(dir, "b.txt"), "b");
    writeFileSync(path.join(dir, "a.txt"), "a");
    const sums = sha256Sums([path.join(dir, "b.txt"), path.join(dir, "a.txt")]);
    expect(sums).toBe(execFileSync("sha256sum", ["a.txt", "b.txt"], { cwd: dir, encoding: "utf8" }));
  });

  it("computes OpenTofu's h1 hash as Go's dirhash Hash1 does", () => {
    // Hash1 of one file "hello" holding "hello\n": sha256 over "<sha256 of the file>  hello\n".
    const fileSum = createHash("sha256").update("hello\n").digest("hex");
    const expected = createHash("sha256").update(`${fileSum}  hello\n`).digest("base64");
    expect(hash1([{ name: "hello", data: Buffer.from("hello\n") }])).toBe(`h1:${expected}`);
  });
});

describe("release signing and the registry's static answers", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "cf-sign-"));
  let signer: ReleaseSigner;
  let gnupg: string;
  beforeAll(() => {
    const key = throwawaySigningKey();
    gnupg = key.home;
    signer = new ReleaseSigner({ [KEY_ENV]: key.secretKey });
  });
  afterAll(() => {
    signer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to start without a key in the environment, saying which variable", () => {
    expect(() => new ReleaseSigner({})).toThrow(`${KEY_ENV} must hold the release's ASCII-armored GnuPG secret key`);
  });

  it("makes a detached signature gpg verifies, the same bytes for the same time", () => {
    const file = path.join(dir, "SHA256SUMS");
    writeFileSync(file, "abc  file.zip\n");
    const time = signer.key.createdAt + 100;
    const first = readFileSync(signer.sign(file, time));
    const second = readFileSync(signer.sign(file, time));
    expect(first.equals(second)).toBe(true);
    const verify = execFileSync("gpg", ["--batch", "--homedir", gnupg, "--status-fd", "1", "--verify", `${file}.sig`, file], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    expect(verify).toContain(`VALIDSIG ${signer.key.fingerprint}`);
    writeFileSync(file, "abd  file.zip\n");
    expect(() => execFileSync("gpg", ["--batch", "--homedir", gnupg, "--verify", `${file}.sig`, file], { stdio: "ignore" })).toThrow();
  });

  it("lists every zip and the manifest in the provider's SHA256SUMS with their hashes, signs it, and declares protocol 6.0 in the manifest", async () => {
    const out = path.join(dir, "provider");
    const [linux, windows] = [TARGETS.find((t) => t.os === "linux")!, TARGETS.find((t) => t.os === "windows")!];
    const executables = new Map([linux, windows].map((target) => {
      const file = path.join(dir, `exe-${target.os}`);
      writeFileSync(file, `#!/bin/sh\necho ${target.os}\n`);
      return [target, file] as const;
    }));
    const zips = await writeTerraformRelease({ out, version: "0.2.0", executables, signer, time: signer.key.createdAt + 100 });
    const manifest = tfNames.manifest("0.2.0");
    const listed = Object.fromEntries(
      readFileSync(path.join(out, tfNames.sums("0.2.0")), "utf8").trim().split("\n").map((line) => line.split("  ").reverse()),
    );
    const files = [...[linux, windows].map((t) => tfNames.zip("0.2.0", t)), manifest];
    expect(listed).toEqual(Object.fromEntries(files.map((f) => [f, sha(path.join(out, f))])));
    expect(zips.map((z) => [path.basename(z.file), z.sha256])).toEqual(files.slice(0, 2).map((f) => [f, listed[f]]));
    // As OpenTofu reads it: the registry's manifest protocol versions, the executable by its name in each zip.
    expect(JSON.parse(readFileSync(path.join(out, manifest), "utf8"))).toEqual({ version: 1, metadata: { protocol_versions: ["6.0"] } });
    for (const target of [linux, windows]) {
      const names = execFileSync("unzip", ["-Z1", path.join(out, tfNames.zip("0.2.0", target))], { encoding: "utf8" }).trim().split("\n");
      expect(names).toEqual([tfNames.binary("0.2.0", target)]);
    }
    expect(tfNames.binary("0.2.0", windows)).toBe("terraform-provider-clusterform_v0.2.0.exe");
    const sums = path.join(out, tfNames.sums("0.2.0"));
    const verify = execFileSync("gpg", ["--batch", "--homedir", gnupg, "--status-fd", "1", "--verify", `${sums}.sig`, sums], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    expect(verify).toContain(`VALIDSIG ${signer.key.fingerprint}`);
    expect(readFileSync(path.join(out, tfNames.publicKey("0.2.0")), "utf8")).toBe(signer.key.publicKey);
  });

  it("answers the registry protocol's download with URLs that lead back to the release's files", () => {
    const target = TARGETS[0];
    const zip: ProviderZip = { target, file: path.join(dir, tfNames.zip("0.2.0", target)), sha256: "ab".repeat(32), h1: "h1:x" };
    writeRegistryTree(dir, "0.2.0", [zip], signer);
    writeMirrorTree(dir, "0.2.0", [zip]);
    const at = `registry/v1/providers/clusterform/clusterform/0.2.0/download/${target.os}/${target.arch}`;
    const download = JSON.parse(readFileSync(path.join(dir, at), "utf8"));
    const resolve = (rel: string) => new URL(rel, `https://mirror.example/${at}`).pathname.slice(1);
    expect(resolve(download.download_url)).toBe(tfNames.zip("0.2.0", target));
    expect(resolve(download.shasums_url)).toBe(tfNames.sums("0.2.0"));
    expect(resolve(download.shasums_signature_url)).toBe(`${tfNames.sums("0.2.0")}.sig`);
    expect(download).toMatchObject({ protocols: ["6.0"], os: target.os, arch: target.arch, shasum: zip.sha256 });
    expect(download.signing_keys.gpg_public_keys).toEqual([{ key_id: signer.key.keyId, ascii_armor: signer.key.publicKey }]);
    const versions = JSON.parse(readFileSync(path.join(dir, "registry/v1/providers/clusterform/clusterform/versions"), "utf8"));
    expect(versions).toEqual({ versions: [{ version: "0.2.0", protocols: ["6.0"], platforms: [{ os: target.os, arch: target.arch }] }] });
    const mirrorAt = "mirror/registry.opentofu.org/clusterform/clusterform/0.2.0.json";
    const mirror = JSON.parse(readFileSync(path.join(dir, mirrorAt), "utf8"));
    const archive = mirror.archives[`${target.os}_${target.arch}`];
    expect(new URL(archive.url, `https://mirror.example/${mirrorAt}`).pathname.slice(1)).toBe(tfNames.zip("0.2.0", target));
    expect(archive.hashes).toEqual(["h1:x", `zh:${zip.sha256}`]);
  });
});

describe("which platforms' Node runs here, to make a startup snapshot", () => {
  const saved = process.env.CLUSTERFORM_ARM64_RUNNER;
  afterAll(() => {
    if (saved === undefined) delete process.env.CLUSTERFORM_ARM64_RUNNER;
    else process.env.CLUSTERFORM_ARM64_RUNNER = saved;
  });
  const target = (os: string, arch: string) => TARGETS.find((t) => t.os === os && t.arch === arch)!;
  const host = TARGETS.find(runsHere);

  it("runs this machine's platform as it is, linux_arm64 elsewhere through the emulator the set-up names, and no other platform", () => {
    expect(host, "a release platform runs here").toBeDefined();
    expect(runnerFor(host!)).toEqual([]);
    expect(startModeFor(host!, "snapshot")).toBe("snapshot");
    const arm64 = target("linux", "arm64");
    if (runsHere(arm64)) return;
    process.env.CLUSTERFORM_ARM64_RUNNER = " /usr/bin/qemu-aarch64-static  -L /usr/aarch64-linux-gnu ";
    expect(runnerFor(arm64)).toEqual(["/usr/bin/qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu"]);
    expect(startModeFor(arm64, "snapshot")).toBe("snapshot");
    for (const other of [target("darwin", "amd64"), target("windows", "amd64")]) {
      expect(runnerFor(other)).toBeUndefined();
      expect(startModeFor(other, "snapshot")).toBe("none");
    }
    process.env.CLUSTERFORM_ARM64_RUNNER = "";
    expect(runnerFor(arm64)).toBeUndefined();
    expect(startModeFor(arm64, "snapshot")).toBe("none");
  });
});

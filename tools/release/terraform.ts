import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { sha256File, sha256Sums, writeZip } from "./archive.ts";
import { exeSuffix, platformName, type Target } from "./node-binaries.ts";
import type { ReleaseSigner } from "./signing.ts";

/** The provider's type name: `terraform-provider-<NAME>`, source `clusterform/clusterform`. */
export const PROVIDER = "clusterform";
export const NAMESPACE = "clusterform";
/** The plugin protocol the provider speaks (provider/engines/terraform). */
export const PROTOCOL_VERSIONS = ["6.0"];

/** The names of a Terraform provider release's files (HashiCorp's and goreleaser's layout). */
export const tfNames = {
  zip: (version: string, target: Pick<Target, "os" | "arch">) => `terraform-provider-${PROVIDER}_${version}_${platformName(target)}.zip`,
  binary: (version: string, target: Pick<Target, "os">) => `terraform-provider-${PROVIDER}_v${version}${exeSuffix(target)}`,
  sums: (version: string) => `terraform-provider-${PROVIDER}_${version}_SHA256SUMS`,
  manifest: (version: string) => `terraform-provider-${PROVIDER}_${version}_manifest.json`,
  publicKey: (version: string) => `terraform-provider-${PROVIDER}_${version}_signing-key.asc`,
};

/** One platform's zip as the release wrote it. */
export interface ProviderZip {
  target: Target;
  file: string;
  sha256: string;
  /** OpenTofu's `h1:` hash of the unpacked package (Go's dirhash Hash1 over its files). */
  h1: string;
}

/**
 * Writes the provider's release files into `out`: one zip per platform (the executable inside,
 * named as tofu looks for it), the manifest, `SHA256SUMS` over both, and its detached signature.
 * @returns the zips, for the registry and mirror trees.
 */
export async function writeTerraformRelease(options: {
  out: string;
  version: string;
  executables: ReadonlyMap<Target, string>;
  signer: ReleaseSigner;
  time: number;
}): Promise<ProviderZip[]> {
  const { out, version, executables, signer, time } = options;
  mkdirSync(out, { recursive: true });
  const zips: ProviderZip[] = [];
  for (const [target, executable] of executables) {
    const file = path.join(out, tfNames.zip(version, target));
    const entry = { name: tfNames.binary(version, target), data: readFileSync(executable), executable: true };
    await writeZip(file, [entry], new Date(time * 1000));
    zips.push({ target, file, sha256: sha256File(file), h1: hash1([entry]) });
  }
  const manifest = path.join(out, tfNames.manifest(version));
  writeFileSync(manifest, `${JSON.stringify({ version: 1, metadata: { protocol_versions: PROTOCOL_VERSIONS } }, null, 2)}\n`);
  const sums = path.join(out, tfNames.sums(version));
  writeFileSync(sums, sha256Sums([...zips.map((z) => z.file), manifest]));
  signer.sign(sums, time);
  writeFileSync(path.join(out, tfNames.publicKey(version)), signer.key.publicKey);
  return zips;
}

/**
 * OpenTofu's `h1:` package hash (Go's golang.org/x/mod/sumdb/dirhash Hash1): the SHA-256 of the
 * lines `<sha256 hex>  <file name>\n` of the package's files, sorted by name, base64.
 */
export function hash1(files: readonly { name: string; data: Buffer }[]): string {
  const lines = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((f) => `${createHash("sha256").update(f.data).digest("hex")}  ${f.name}\n`)
    .join("");
  return `h1:${createHash("sha256").update(lines).digest("base64")}`;
}

/**
 * Writes the provider registry protocol as static files under `<out>/registry/`: what a registry
 * host answers for `clusterform/clusterform` (versions, and per platform the download: zip,
 * SHA256SUMS, signature, public key), every URL relative to the answer, so the release folder can
 * be served as it is by any HTTPS file server and named in a `host` block of the CLI configuration.
 */
export function writeRegistryTree(out: string, version: string, zips: readonly ProviderZip[], signer: ReleaseSigner): void {
  const root = path.join(out, "registry");
  const providerDir = path.join(root, "v1", "providers", NAMESPACE, PROVIDER);
  writeJson(path.join(root, ".well-known", "terraform.json"), { "providers.v1": "/v1/providers/" });
  writeJson(path.join(providerDir, "versions"), {
    versions: [
      {
        version,
        protocols: PROTOCOL_VERSIONS,
        platforms: zips.map(({ target }) => ({ os: target.os, arch: target.arch })),
      },
    ],
  });
  for (const zip of zips) {
    const at = path.join(providerDir, version, "download", zip.target.os, zip.target.arch);
    const rel = (file: string) => path.posix.relative(path.posix.dirname(toPosix(at)), toPosix(path.join(out, file)));
    writeJson(at, {
      protocols: PROTOCOL_VERSIONS,
      os: zip.target.os,
      arch: zip.target.arch,
      filename: path.basename(zip.file),
      download_url: rel(path.basename(zip.file)),
      shasums_url: rel(tfNames.sums(version)),
      shasums_signature_url: rel(`${tfNames.sums(version)}.sig`),
      shasum: zip.sha256,
      signing_keys: { gpg_public_keys: [{ key_id: signer.key.keyId, ascii_armor: signer.key.publicKey }] },
    });
  }
}

/**
 * Writes the provider network mirror protocol as static files under
 * `<out>/mirror/registry.opentofu.org/clusterform/clusterform/` (`index.json`, `<version>.json`
 * with each zip's relative URL and its `h1:` and `zh:` hashes), for a `network_mirror` block.
 */
export function writeMirrorTree(out: string, version: string, zips: readonly ProviderZip[], hostname = "registry.opentofu.org"): void {
  const dir = path.join(out, "mirror", hostname, NAMESPACE, PROVIDER);
  writeJson(path.join(dir, "index.json"), { versions: { [version]: {} } });
  const archives: Record<string, unknown> = {};
  for (const zip of zips) {
    archives[platformName(zip.target)] = {
      url: path.posix.relative(toPosix(dir), toPosix(zip.file)),
      hashes: [zip.h1, `zh:${zip.sha256}`],
    };
  }
  writeJson(path.join(dir, `${version}.json`), { archives });
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}

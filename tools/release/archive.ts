import { createHash } from "node:crypto";
import { chmodSync, createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";
import yazl from "yazl";

/** One file of an archive: its path inside, its bytes, and whether it is executable. */
export interface ArchiveEntry {
  name: string;
  data: Buffer;
  executable?: boolean;
}

/**
 * Writes a zip whose bytes depend only on the entries and `mtime`: entries sorted by name, one
 * timestamp, fixed permissions (0755 or 0644), no extra fields.
 */
export async function writeZip(file: string, entries: readonly ArchiveEntry[], mtime: Date): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const entry of sortedEntries(entries)) {
    zip.addBuffer(entry.data, entry.name, {
      mtime,
      mode: entry.executable ? 0o100755 : 0o100644,
      compress: true,
      forceDosTimestamp: true,
    });
  }
  zip.end();
  mkdirSync(path.dirname(file), { recursive: true });
  await pipeline(zip.outputStream, createWriteStream(file));
}

/**
 * Writes a gzipped tar whose bytes depend only on the entries and `mtime`: sorted, portable headers
 * (no owner, no user or group names), one timestamp, fixed permissions, gzip without a file name
 * or time.
 */
export async function writeTarGz(file: string, entries: readonly ArchiveEntry[], mtime: Date): Promise<void> {
  const stage = mkdtempSync(path.join(tmpdir(), "clusterform-tar-"));
  try {
    const names: string[] = [];
    for (const entry of sortedEntries(entries)) {
      const target = path.join(stage, entry.name);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, entry.data);
      chmodSync(target, entry.executable ? 0o755 : 0o644);
      utimesSync(target, mtime, mtime);
      names.push(entry.name);
    }
    mkdirSync(path.dirname(file), { recursive: true });
    await tar.create({ file, cwd: stage, gzip: { level: 9 }, portable: true, mtime, noDirRecurse: true }, names);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * Every file under `dir` as archive entries named `<prefix>/<path below dir>` (no prefix when
 * empty), executable where any execute bit is set. Folders are not entries of their own.
 */
export function folderEntries(dir: string, prefix = ""): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    const stat = statSync(full);
    if (stat.isDirectory()) entries.push(...folderEntries(full, rel));
    else entries.push({ name: rel, data: readFileSync(full), executable: (stat.mode & 0o111) !== 0 });
  }
  return entries;
}

function sortedEntries(entries: readonly ArchiveEntry[]): ArchiveEntry[] {
  const names = new Set<string>();
  for (const entry of entries) {
    if (names.has(entry.name)) throw new Error(`archive entry "${entry.name}" given twice`);
    names.add(entry.name);
  }
  return [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The SHA-256 of a file, hex. */
export function sha256File(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/**
 * The lines of a `SHA256SUMS` file (`<hex>  <name>`, sorted by name), as `sha256sum` writes them
 * and OpenTofu, Terraform and goreleaser read them.
 */
export function sha256Sums(files: readonly string[]): string {
  return [...files]
    .sort((a, b) => (path.basename(a) < path.basename(b) ? -1 : 1))
    .map((file) => `${sha256File(file)}  ${path.basename(file)}\n`)
    .join("");
}

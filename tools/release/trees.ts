import { readdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { folderEntries, writeTarGz } from "./archive.ts";

/**
 * The asset that carries one folder of the release (`registry/`, `mirror/`, `goproxy/`): a GitHub
 * release holds flat files only, so each folder travels as one archive beside the other assets.
 */
export function treeArchiveName(version: string, folder: string): string {
  return `clusterform_${version}_${folder}.tar.gz`;
}

/** The folder a release asset carries, when it is one of {@link treeArchiveName}'s archives. */
export function treeOfArchive(version: string, asset: string): string | undefined {
  const [before, after] = treeArchiveName(version, "\0").split("\0");
  if (!asset.startsWith(before) || !asset.endsWith(after)) return undefined;
  const folder = asset.slice(before.length, asset.length - after.length);
  return folder !== "" && !folder.includes("/") ? folder : undefined;
}

/**
 * Writes every folder of the release `out` as {@link treeArchiveName} beside it: the folder's files
 * under their paths from the release's root (`registry/v1/...`), so unpacking the archive where the
 * other assets were downloaded gives back the folder as `npm run release` wrote it, relative links
 * to the zips included. Same bytes for the same files and `time`.
 * @returns the folders archived, by name
 */
export async function writeTreeArchives(out: string, version: string, time: number): Promise<Record<string, string>> {
  const archives: Record<string, string> = {};
  const folders = readdirSync(out)
    .filter((name) => statSync(path.join(out, name)).isDirectory())
    .sort();
  for (const folder of folders) {
    archives[folder] = treeArchiveName(version, folder);
    await writeTarGz(path.join(out, archives[folder]), folderEntries(path.join(out, folder), folder), new Date(time * 1000));
  }
  return archives;
}

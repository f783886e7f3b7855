import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync } from "node:fs";
import * as path from "node:path";
import { treeOfArchive } from "../../tools/release/trees";

/**
 * A release as its user (or a maintainer filling a static host) gets it from the GitHub release:
 * the assets downloaded into one folder (here hard links), and each folder's archive unpacked there
 * with `tar -xzf`, as docs/install.md says.
 * @returns the folders unpacked, by name
 */
export function assembleFromAssets(assets: readonly string[], into: string, version: string): string[] {
  mkdirSync(into, { recursive: true });
  const folders: string[] = [];
  for (const asset of assets) {
    const name = path.basename(asset);
    linkSync(asset, path.join(into, name));
    const folder = treeOfArchive(version, name);
    if (folder === undefined) continue;
    execFileSync("tar", ["-xzf", name], { cwd: into });
    folders.push(folder);
  }
  return folders.sort();
}

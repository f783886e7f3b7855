import { copyFileSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { writeTarGz } from "./archive.ts";
import { exeSuffix, type Target } from "./node-binaries.ts";

export const PLUGIN = "clusterform";

/** `pulumi-resource-clusterform-v0.3.0-linux-amd64.tar.gz`: what `pulumi plugin install --server` and pluginDownloadURL fetch. */
export function pluginTarballName(version: string, target: Pick<Target, "os" | "arch">): string {
  return `pulumi-resource-${PLUGIN}-v${version}-${target.os}-${target.arch}.tar.gz`;
}

/**
 * Writes one plugin tarball per platform (the executable at the archive's root, as Pulumi
 * expects) and the package schema beside them.
 * @param schemaFile - the schema the plugin serves, which carries `pluginDownloadURL`
 */
export async function writePulumiRelease(options: {
  out: string;
  version: string;
  executables: ReadonlyMap<Target, string>;
  schemaFile: string;
  time: number;
}): Promise<string[]> {
  const { out, version, executables, schemaFile, time } = options;
  const schema = JSON.parse(readFileSync(schemaFile, "utf8")) as { version?: string; pluginDownloadURL?: string };
  if (schema.version !== version) throw new Error(`${schemaFile} is for version ${schema.version}, the release is ${version}: run npm run generate:schema`);
  if (!schema.pluginDownloadURL) throw new Error(`${schemaFile} has no pluginDownloadURL: the engine could not fetch the plugin`);
  const files: string[] = [];
  for (const [target, executable] of executables) {
    const file = path.join(out, pluginTarballName(version, target));
    const name = `pulumi-resource-${PLUGIN}${exeSuffix(target)}`;
    await writeTarGz(file, [{ name, data: readFileSync(executable), executable: true }], new Date(time * 1000));
    files.push(file);
  }
  const schemaOut = path.join(out, "schema.json");
  copyFileSync(schemaFile, schemaOut);
  files.push(schemaOut);
  return files;
}

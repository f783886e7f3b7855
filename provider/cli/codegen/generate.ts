import { readFileSync } from "node:fs";
import * as path from "node:path";
import { tokenParts } from "../../core/definition/describe";
import type { Kind } from "../../core/definition/kind";
import { allKinds } from "../../kinds";
import { pulumiPackageSchema } from "./pulumi-schema";
import { nativeIndexFile, nativeModuleFile, nativeProviderFile } from "./typescript-native";
import { kindFile, timeoutsFile } from "./typescript-sdk";

/** One generated file, relative to the repository root. */
export interface GeneratedFile {
  path: string;
  text: string;
}

/** The package version, which the schema carries. */
function packageVersion(root: string): string {
  return JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;
}

/** Every file derived from the resource definitions: the package schema and the TypeScript SDK classes. */
export async function generatedFiles(root: string, given?: readonly Kind[]): Promise<GeneratedFile[]> {
  const kinds = given ?? (await allKinds());
  const files: GeneratedFile[] = [{ path: "schema.json", text: `${JSON.stringify(pulumiPackageSchema(kinds, packageVersion(root)), null, 2)}\n` }];
  files.push(timeoutsFile(kinds[0]));
  for (const kind of kinds) files.push(kindFile(kind));
  const modules = [...new Set(kinds.map((k) => tokenParts(k).module))];
  for (const module of modules) files.push(nativeModuleFile(module, kinds.filter((k) => tokenParts(k).module === module)));
  files.push(nativeProviderFile(), nativeIndexFile(modules));
  return files;
}

/**
 * `pulumi-resource-clusterform`: the native provider plugin. The engine starts it (through the
 * `plugin/pulumi-resource-clusterform` shim of the npm package) with its address as argument; it
 * serves `@pulumi/pulumi/provider`'s gRPC server over the same handlers as the dynamic providers.
 */
// First: the Node.js check runs before anything that needs a newer Node loads.
import "../../../common/node-version";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { getAsset, isSea } from "node:sea";
import * as providerServer from "@pulumi/pulumi/provider";
import { useEngineLogInPlugin } from "../pulumi-common/engine-log";
import { nativePlugin } from "./provider";
import { installServerHooks } from "./server-hooks";

/** The package root: dist/provider/engines/pulumi-native/main.js lies four folders below it. */
const packageRoot = path.resolve(__dirname, "..", "..", "..", "..");

/** A file of the package: an asset of the release's single executable, else read from the package root. */
function packageFile(name: string): string | undefined {
  if (isSea()) return getAsset(name, "utf8");
  const file = path.join(packageRoot, name);
  return existsSync(file) ? readFileSync(file, "utf8") : undefined;
}

function packageVersion(): string {
  return (JSON.parse(packageFile("package.json") ?? "{}") as { version: string }).version;
}

/** The generated package schema when the package ships one; else the least the engine accepts. */
async function schema(): Promise<string> {
  return packageFile("schema.json") ?? JSON.stringify({ name: "clusterform", version: packageVersion() });
}

useEngineLogInPlugin();
const plugin = nativePlugin(packageVersion(), schema);
installServerHooks(plugin.hooks);

providerServer.main(plugin.provider, process.argv.slice(2)).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/**
 * `pulumi-resource-clusterform`: the native provider plugin. The engine starts it (through the
 * `plugin/pulumi-resource-clusterform` shim of the npm package) with its address as argument; it
 * serves `@pulumi/pulumi/provider`'s gRPC server over the same handlers as the dynamic providers.
 */
// First: the Node.js check runs before anything that needs a newer Node loads.
import "../../../common/node-version";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import * as providerServer from "@pulumi/pulumi/provider";
import { useEngineLogInPlugin } from "../pulumi-common/engine-log";
import { nativePlugin } from "./provider";
import { installServerHooks } from "./server-hooks";

/** The package root: dist/provider/engines/pulumi-native/main.js lies four folders below it. */
const packageRoot = path.resolve(__dirname, "..", "..", "..", "..");

function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string }).version;
}

/** The generated package schema when the package ships one; else the least the engine accepts. */
async function schema(): Promise<string> {
  const file = path.join(packageRoot, "schema.json");
  if (existsSync(file)) return readFileSync(file, "utf8");
  return JSON.stringify({ name: "clusterform", version: packageVersion() });
}

useEngineLogInPlugin();
const plugin = nativePlugin(packageVersion(), schema);
installServerHooks(plugin.hooks);

providerServer.main(plugin.provider, process.argv.slice(2)).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

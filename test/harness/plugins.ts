import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { engineEnv, pulumiBinDir } from "./engine";

/**
 * Provider plugins of other packages that test programs use, by name: the environment variable
 * scripts/setup/kubernetes.sh exports with the built binary, and the npm package whose version the
 * engine asks for.
 */
const PLUGINS: Readonly<Record<string, { env: string; npm: string }>> = {
  kubernetes: { env: "CLUSTERFORM_PLUGIN_KUBERNETES", npm: "@pulumi/kubernetes" },
};

/**
 * Installs the named provider plugins from the set-up's builds into this test process's own
 * PULUMI_HOME (once per process), so the engine finds them and never tries to download one.
 */
export function installProviderPlugins(names: readonly string[]): void {
  const env = engineEnv();
  for (const name of names) {
    const plugin = PLUGINS[name];
    if (!plugin) throw new Error(`unknown provider plugin "${name}": expected one of ${Object.keys(PLUGINS).join(", ")}`);
    const binary = process.env[plugin.env];
    if (!binary || !existsSync(binary)) {
      throw new Error(`${plugin.env} is ${binary ? `"${binary}", which does not exist` : "not set"}: run the tests through scripts/test.sh, whose set-up builds pulumi-resource-${name}`);
    }
    const version: string = require(`${plugin.npm}/package.json`).version;
    if (existsSync(path.join(env.PULUMI_HOME, "plugins", `resource-${name}-v${version}`, `pulumi-resource-${name}`))) continue;
    execFileSync(path.join(pulumiBinDir(), "pulumi"), ["plugin", "install", "resource", name, version, "--file", binary], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
}

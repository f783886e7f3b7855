#!/usr/bin/env node
/**
 * `clusterform-tofu-mirror <folder> [registry host]`: writes a filesystem mirror of terraform-provider-clusterform
 * and prints the CLI configuration that installs from it (`tofu init` then works offline).
 */
// First: the Node.js check runs before anything that needs a newer Node loads.
import "../../../common/node-version";
import { mirrorCliConfig, writeMirror } from "./mirror";

const target = process.argv[2];
if (!target || target.startsWith("-")) {
  process.stderr.write("usage: clusterform-tofu-mirror <folder> [registry host, default registry.opentofu.org; registry.terraform.io for Terraform]\n  writes a filesystem mirror of the provider there and prints the provider_installation block for your CLI configuration (~/.tofurc or TF_CLI_CONFIG_FILE)\n");
  process.exit(2);
}
const layout = writeMirror(target, process.argv[3]);
process.stderr.write(`terraform-provider-clusterform ${layout.version} written to ${layout.packageDir}\nAdd this to your CLI configuration:\n\n`);
process.stdout.write(mirrorCliConfig(layout.mirror, layout.host));

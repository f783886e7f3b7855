// Bundles the start path of the OpenTofu/Terraform provider into one file beside its compiled entry:
// dist/provider/engines/terraform/bundle.cjs. tofu starts the provider several times per command,
// one after another, so each start counts. The bundle holds the protocol code (this folder, the
// generated tfplugin6 and go-plugin messages) and its libraries (Connect, protobuf-es, msgpack) as
// ES modules, so the bundler leaves out what is never used (protobuf-es's well-known types, whose
// descriptors it would otherwise build at load), and resolves some 180 files once, at build time.
// The rest (the core, the kinds, their clients, zod) stays outside, required from dist/ as
// before and only when a call needs it. Run by `npm run build`, after tsc.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { build } from "rolldown";

const here = "provider/engines/terraform/";

await build({
  input: `${here}main.ts`,
  platform: "node",
  logLevel: "warn",
  // A relative import leaving this folder (other than to the generated messages) stays a require of
  // the compiled file: same path from the bundle, which sits where main.js does.
  external: (id, importer) => Boolean(importer?.includes(here) && id.startsWith("..") && !id.includes("proto/gen/")),
  // Lazy imports leaving this folder stay lazy requires of the compiled files (the core loads at the first resource call).
  output: { file: `dist/${here}bundle.cjs`, format: "cjs", codeSplitting: false, minify: true, dynamicImportInCjs: false },
});

// GetProviderSchema's answer, stored beside the bundle (schema-cache.ts): the first provider process
// of every tofu command asks for it, and then reads a file instead of loading every kind's definition.
const require = createRequire(import.meta.url);
const { providerSchema } = require(`../../dist/${here}provider-service.js`);
const { schemaToJson, SCHEMA_FILE } = require(`../../dist/${here}schema-cache.js`);
writeFileSync(`dist/${here}${SCHEMA_FILE}`, schemaToJson(await providerSchema()));

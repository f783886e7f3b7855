// Writes (or, with --check, compares) the reference pages of a Pulumi package schema.
//
//   node tools/reference-docs/cli.mjs <schema.json> <folder> [--typescript-module <module>] [--check]
//
// --typescript-module names the module the TypeScript examples import (default: the schema's
// Node.js package name). --check writes nothing; it exits 1 naming every page that differs from
// what the schema gives, is missing, or is left over. Node >= 22.18 runs the TypeScript renderer as
// it is (type stripping).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { renderReference } from "./pages.ts";

const usage = "usage: node tools/reference-docs/cli.mjs <schema.json> <folder> [--typescript-module <module>] [--check]";
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { check: { type: "boolean" }, "typescript-module": { type: "string" } } });
} catch (e) {
  console.error(`${e.message}\n${usage}`);
  process.exit(2);
}
const [schemaPath, folder, ...rest] = parsed.positionals;
if (!schemaPath || !folder || rest.length > 0) {
  console.error(usage);
  process.exit(2);
}
const typescriptModule = parsed.values["typescript-module"];
const pages = renderReference(JSON.parse(readFileSync(schemaPath, "utf8")), { typescriptModule });
const present = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith(".md")) : [];
const wanted = new Set(pages.map((p) => p.file));

if (parsed.values.check) {
  const stale = [
    ...pages.filter((p) => !existsSync(path.join(folder, p.file)) || readFileSync(path.join(folder, p.file), "utf8") !== p.text).map((p) => p.file),
    ...present.filter((f) => !wanted.has(f)),
  ];
  if (stale.length) {
    console.error(`reference pages in ${folder} differ from ${schemaPath}: ${stale.join(", ")}`);
    console.error(`regenerate: node tools/reference-docs/cli.mjs ${schemaPath} ${folder}${typescriptModule ? ` --typescript-module ${typescriptModule}` : ""}`);
    process.exit(1);
  }
  console.log(`reference pages in ${folder}: ${pages.length} up to date`);
} else {
  mkdirSync(folder, { recursive: true });
  for (const f of present) if (!wanted.has(f)) rmSync(path.join(folder, f));
  for (const p of pages) writeFileSync(path.join(folder, p.file), p.text);
  console.log(`reference pages in ${folder}: ${pages.length} written`);
}

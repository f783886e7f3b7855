// Writes (or, with --check, compares) the reference pages of a Pulumi package schema.
//
//   node tools/reference-docs/cli.mjs <schema.json> <folder> [--check]
//
// --check writes nothing; it exits 1 naming every page that differs from what the schema gives,
// is missing, or is left over. Node >= 22.18 runs the TypeScript renderer as it is (type stripping).
import { readdirSync, readFileSync, rmSync, mkdirSync, writeFileSync, existsSync } from "node:fs";
import * as path from "node:path";
import { renderReference } from "./render.ts";

const [schemaPath, folder, ...flags] = process.argv.slice(2);
if (!schemaPath || !folder || flags.some((f) => f !== "--check")) {
  console.error("usage: node tools/reference-docs/cli.mjs <schema.json> <folder> [--check]");
  process.exit(2);
}
const pages = renderReference(JSON.parse(readFileSync(schemaPath, "utf8")));
const present = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith(".md")) : [];
const wanted = new Set(pages.map((p) => p.file));

if (flags.includes("--check")) {
  const stale = [
    ...pages.filter((p) => !existsSync(path.join(folder, p.file)) || readFileSync(path.join(folder, p.file), "utf8") !== p.text).map((p) => p.file),
    ...present.filter((f) => !wanted.has(f)),
  ];
  if (stale.length) {
    console.error(`reference pages in ${folder} differ from ${schemaPath}: ${stale.join(", ")}`);
    console.error(`regenerate: node tools/reference-docs/cli.mjs ${schemaPath} ${folder}`);
    process.exit(1);
  }
  console.log(`reference pages in ${folder}: ${pages.length} up to date`);
} else {
  mkdirSync(folder, { recursive: true });
  for (const f of present) if (!wanted.has(f)) rmSync(path.join(folder, f));
  for (const p of pages) writeFileSync(path.join(folder, p.file), p.text);
  console.log(`reference pages in ${folder}: ${pages.length} written`);
}

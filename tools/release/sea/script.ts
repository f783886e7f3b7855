import { readFileSync } from "node:fs";
import * as path from "node:path";
import { build, type Plugin } from "rolldown";
import ts from "typescript";
import type { SeaProgram } from "./programs.ts";

const ENTRY_ID = "\0clusterform-sea-entry";
/** This folder, relative to the repository. */
const SEA_DIR = "tools/release/sea";

/** What a deferred built-in looks like while a snapshot is made (prelude.cjs): its property names and data. */
export type DeferredShapes = Record<string, { keys: string[]; data: Record<string, unknown> }>;

/**
 * The main script of a single executable: prelude.cjs, then the whole program (the engine's entry,
 * every module it loads, the modules of `dynamic`) bundled into one CommonJS function.
 * @param deferred - the built-ins to hand out as stand-ins while a snapshot is made; `{}` without one.
 */
export async function seaScript(root: string, program: SeaProgram, deferred: DeferredShapes): Promise<string> {
  const output = await build({
    cwd: root,
    input: ENTRY_ID,
    platform: "node",
    logLevel: "warn",
    plugins: [entryPlugin(root, program)],
    write: false,
    output: { format: "cjs", codeSplitting: false, minify: true },
  });
  const chunk = output.output.find((o) => o.type === "chunk");
  if (!chunk) throw new Error(`bundling ${program.name} produced no script`);
  const prelude = readFileSync(path.join(root, SEA_DIR, "prelude.cjs"), "utf8").replace(
    "/* CLUSTERFORM_SEA_DEFERRED */ {}",
    JSON.stringify(deferred),
  );
  // While a snapshot is made the script runs without `module` and `exports`: the bundle gets its own.
  return `${prelude}\n(function (require, module, exports) {\n${chunk.code}\n})(bundleRequire, { exports: {} }, {});\n`;
}

/**
 * The generated entry: registers the dynamic modules, preloads (for a snapshot) what the engine's
 * entry point imports plus every handler, and starts the entry point.
 */
function entryPlugin(root: string, program: SeaProgram): Plugin {
  const abs = (file: string) => JSON.stringify(path.join(root, file));
  const here = path.join(root, SEA_DIR);
  const moduleRef = (spec: string) => (spec.endsWith(".ts") ? abs(spec) : JSON.stringify(spec));
  const entryFile = path.join(root, program.entry);
  const imports = entryImports(entryFile).map((spec) =>
    spec.startsWith(".") ? JSON.stringify(path.resolve(path.dirname(entryFile), spec)) : JSON.stringify(spec),
  );
  const code = [
    `import { runSea } from ${JSON.stringify(path.join(here, "run.ts"))};`,
    "runSea({",
    "  dynamic: {",
    ...Object.entries(program.dynamic).map(([name, spec]) => `    ${JSON.stringify(name)}: () => require(${moduleRef(spec)}),`),
    "  },",
    "  preload: async () => {",
    ...imports.map((spec) => `    require(${spec});`),
    `    await require(${JSON.stringify(path.join(here, "warm.ts"))}).warmHandlers();`,
    "  },",
    `  main: () => { require(${abs(program.entry)}); },`,
    "});",
  ].join("\n");
  return {
    name: "clusterform-sea-entry",
    resolveId: (id) => (id === ENTRY_ID ? id : undefined),
    load: (id) => (id === ENTRY_ID ? code : undefined),
  };
}

/** The modules an entry point imports (not type-only), as written. */
export function entryImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const specs: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
    specs.push((statement.moduleSpecifier as ts.StringLiteral).text);
  }
  return specs;
}

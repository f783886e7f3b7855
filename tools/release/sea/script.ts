import { readFileSync } from "node:fs";
import * as path from "node:path";
import { build, type Plugin } from "rolldown";
import type { SeaProgram } from "./programs.ts";

const ENTRY_ID = "\0clusterform-sea-entry";
/** This folder, relative to the repository. */
const SEA_DIR = "tools/release/sea";

/** What a deferred built-in looks like while a snapshot is made (prelude.cjs): its property names and data. */
export type DeferredShapes = Record<string, { keys: string[]; data: Record<string, unknown> }>;

/**
 * The main script of a single executable: prelude.cjs, then the whole program (the engine's entry,
 * every module it loads, the modules of `dynamic`) bundled into one CommonJS function.
 * @param deferred - the built-ins to hand out as stand-ins while a snapshot is made; `{}` without
 *   one (and then nothing is preloaded).
 */
export async function seaScript(root: string, program: SeaProgram, deferred: DeferredShapes): Promise<string> {
  // Only a snapshot preloads; the other modes load modules as the entry point asks for them.
  const preload = Object.keys(deferred).length > 0 ? await providerModules(root, program.entry) : [];
  const output = await build({
    cwd: root,
    input: ENTRY_ID,
    platform: "node",
    logLevel: "warn",
    plugins: [entryPlugin(root, program, preload)],
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
 * The modules of the repository's provider code the engine's entry point can load (statically or
 * lazily), the entry itself left out: what a startup snapshot loads ahead. Found by bundling the
 * entry alone, so no list of modules is kept by hand and a module the provider adds is preloaded
 * by the next build.
 */
export async function providerModules(root: string, entry: string): Promise<string[]> {
  const output = await build({ cwd: root, input: path.join(root, entry), platform: "node", logLevel: "silent", write: false, output: { format: "cjs", codeSplitting: false } });
  const chunk = output.output.find((o) => o.type === "chunk");
  if (!chunk) throw new Error(`bundling ${entry} produced no script`);
  const provider = path.join(root, "provider") + path.sep;
  return chunk.moduleIds.filter((id) => id.startsWith(provider) && id !== path.join(root, entry) && !/\.test\.ts$/.test(id)).sort();
}

/**
 * The generated entry: registers the dynamic modules, preloads (for a snapshot) every provider
 * module the engine can load, and starts the entry point.
 */
function entryPlugin(root: string, program: SeaProgram, preload: readonly string[]): Plugin {
  const abs = (file: string) => JSON.stringify(path.join(root, file));
  const moduleRef = (spec: string) => (spec.endsWith(".ts") ? abs(spec) : JSON.stringify(spec));
  const code = [
    `import { runSea } from ${JSON.stringify(path.join(root, SEA_DIR, "run.ts"))};`,
    "runSea({",
    "  dynamic: {",
    ...Object.entries(program.dynamic).map(([name, spec]) => `    ${JSON.stringify(name)}: () => require(${moduleRef(spec)}),`),
    "  },",
    "  preload: () => {",
    ...preload.map((file) => `    require(${JSON.stringify(file)});`),
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

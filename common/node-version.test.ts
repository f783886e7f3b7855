import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NODE_MIN, NODE_VERSION_OVERRIDE, nodeVersionProblem } from "./node-version";

const repoRoot = path.resolve(__dirname, "..");
const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { bin: Record<string, string>; engines: { node: string } };

describe("nodeVersionProblem", () => {
  it("asks for the Node.js of package.json's engines", () => {
    expect(manifest.engines.node).toBe(`>=${NODE_MIN}`);
  });

  it.each([["24.21.0"], ["23.0.0"], ["22.13.0"], ["22.13.1"], ["22.14.0"]])("accepts Node.js %s", (found) => {
    expect(nodeVersionProblem(found)).toBeUndefined();
  });

  it.each([["22.12.9"], ["22.0.0"], ["20.19.0"], ["18.20.4"], ["21.99.0"]])("refuses Node.js %s, naming the version needed and the one found", (found) => {
    expect(nodeVersionProblem(found)).toBe(`Clusterform's commands need Node.js >= 22.13 (package.json "engines"), but this is Node.js ${found}`);
  });

  it("says so when the version cannot be read", () => {
    expect(nodeVersionProblem("twenty")).toBe('cannot tell which Node.js this is: expected a version such as 22.13.0, got "twenty"');
  });
});

/**
 * Every command of the package, as it starts: the `bin` entries of package.json and the plugin shim
 * under plugin/. Shell shims start the compiled entry named here.
 */
const SHIM_ENTRIES: Record<string, string> = {
  "bin/terraform-provider-clusterform": "provider/engines/terraform/main.ts",
  "plugin/pulumi-resource-clusterform": "provider/engines/pulumi-native/main.ts",
};
const commands = [...Object.entries(manifest.bin).map(([name, file]) => [name, file] as const), ["pulumi-resource-clusterform", "plugin/pulumi-resource-clusterform"] as const];

/** The TypeScript source a command's file is compiled from, or undefined for a shell shim. */
function sourceOf(file: string): string | undefined {
  return file.startsWith("dist/") ? file.replace(/^dist\//, "").replace(/\.js$/, ".ts") : undefined;
}

/**
 * A package laid out as npm installs it, holding only each command's entry (transpiled) and the
 * check: an entry that loaded anything before the check would fail with MODULE_NOT_FOUND instead of
 * the check's message.
 */
let pkg: string;
beforeAll(() => {
  pkg = mkdtempSync(path.join(tmpdir(), "clusterform-node-version-"));
  const sources = new Set(["common/node-version.ts", ...Object.values(SHIM_ENTRIES)]);
  for (const [, file] of commands) {
    const source = sourceOf(file);
    if (source) sources.add(source);
    else {
      mkdirSync(path.join(pkg, path.dirname(file)), { recursive: true });
      cpSync(path.join(repoRoot, file), path.join(pkg, file));
      chmodSync(path.join(pkg, file), 0o755);
    }
  }
  for (const source of sources) {
    const out = path.join(pkg, "dist", source.replace(/\.ts$/, ".js"));
    mkdirSync(path.dirname(out), { recursive: true });
    const { outputText } = ts.transpileModule(readFileSync(path.join(repoRoot, source), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    writeFileSync(out, outputText);
  }
});
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

function run(file: string, env: NodeJS.ProcessEnv) {
  const target = path.join(pkg, file);
  const [command, args] = sourceOf(file) ? [process.execPath, [target]] : [target, []];
  return spawnSync(command, args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

describe("every command on too old a Node.js", () => {
  it("covers the six commands", () => {
    expect(commands.map(([name]) => name).sort()).toEqual([
      "clusterform",
      "clusterform-local",
      "clusterform-plugin-tarball",
      "clusterform-tofu-mirror",
      "pulumi-resource-clusterform",
      "terraform-provider-clusterform",
    ]);
  });

  it.each(commands)("%s exits 1 before loading anything, naming Node.js 22.13 and the one found on stderr, nothing on stdout", (_, file) => {
    // The shims run `node` from PATH: the one running the tests.
    const env = { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, [NODE_VERSION_OVERRIDE]: "20.19.0" };
    const result = run(file, env);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `Clusterform's commands need Node.js >= 22.13 (package.json "engines"), but this is Node.js 20.19.0 (${process.execPath}).\n` +
        "Install Node.js 22.13 or newer and put it first on PATH, then run the command again.\n",
    );
    expect(result.status).toBe(1);
  });

  it("lets a new enough Node.js through to the entry's own imports (here absent, so it fails on them)", () => {
    const result = run(manifest.bin["clusterform-local"], { ...process.env, [NODE_VERSION_OVERRIDE]: "22.13.0" });
    expect(result.stderr).toContain("Cannot find module './quiet-sqlite-warning'");
    expect(result.status).toBe(1);
  });
});

// Keeps SHIM_ENTRIES honest: each shim starts the entry it is listed with.
describe("the shell shims", () => {
  it.each(Object.entries(SHIM_ENTRIES))("%s starts %s", (shim, entry) => {
    expect(readFileSync(path.join(repoRoot, shim), "utf8")).toContain(path.dirname(path.join("dist", entry)));
  });
});

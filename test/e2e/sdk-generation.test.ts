import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderReference } from "../../tools/reference-docs/render";
import { repoRoot, workDir } from "../harness/paths";

/**
 * The SDKs Pulumi's own code generators write from a package schema (tools/sdkgen through
 * scripts/generate-sdks.sh), checked as far as this machine can: the Node.js SDK compiles with tsc,
 * the Go SDK builds with the Go toolchain and module proxy, the Python files compile, the .NET
 * generation succeeds (no .NET toolchain here to build it). The reference pages' TypeScript and Go
 * examples compile against the generated SDKs. No Pulumi engine runs.
 */

/** The package schema generated from the resource definitions (npm run generate:schema). */
const schemaFile = path.join(repoRoot(), "schema.json");
const cache = process.env.CLUSTERFORM_CACHE ?? path.join(homedir(), ".cache", "clusterform");
/** The Go caches the set-up fills (scripts/setup/languages.sh primes the Pulumi Go SDK there). */
const goEnv = {
  ...process.env,
  GOMODCACHE: path.join(cache, "go", "mod"),
  GOCACHE: path.join(cache, "go", "build"),
  GOFLAGS: "-modcacherw",
  GOTOOLCHAIN: "local",
  CGO_ENABLED: "0",
};

/** A code block of the given language from a reference page. */
function example(page: string, lang: string): string {
  const block = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(page);
  if (!block) throw new Error(`no ${lang} example`);
  return block[1];
}

/** Every file under a folder, relative to it. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** What a command that must fail printed (tsc reports on stdout); "" when it succeeded. */
function failure(command: () => unknown): string {
  try {
    command();
    return "";
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    return `${stdout ?? ""}${stderr ?? ""}`;
  }
}

describe("SDKs generated from schema.json", () => {
  let out: string;
  const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
  /** The reference page of every resource, by its file name without .md. */
  const pages = renderReference(schema)
    .filter((p) => p.text.includes("## Example"))
    .map((p) => ({ name: p.file.replace(/\.md$/, ""), text: p.text }));

  beforeAll(() => {
    // Under the repository, so the Node SDK resolves @pulumi/pulumi and typescript from its node_modules.
    mkdirSync(workDir(), { recursive: true });
    out = mkdtempSync(path.join(workDir(), "sdks-"));
    run("bash", [path.join(repoRoot(), "scripts", "generate-sdks.sh"), schemaFile, out], repoRoot());
  }, 900_000);

  it("the Node.js SDK compiles with tsc, and the reference pages' TypeScript examples compile against it", () => {
    const sdk = path.join(out, "nodejs");
    const pkg = JSON.parse(readFileSync(path.join(sdk, "package.json"), "utf8"));
    expect(pkg.pulumi).toEqual({ resource: true, name: "clusterform", version: schema.version });
    const tsc = path.join(repoRoot(), "node_modules", ".bin", "tsc");
    run(tsc, ["-p", path.join(sdk, "tsconfig.json")], sdk);
    expect(files(path.join(sdk, "bin"))).toContain(path.join("cmassh", "nodePool.js"));

    // Installed the way the package would be: the compiled files with their package.json beside them.
    const program = path.join(out, "ts-program");
    const installed = path.join(program, "node_modules", "@clusterform", "pulumi");
    cpSync(path.join(sdk, "bin"), installed, { recursive: true });
    writeFileSync(path.join(installed, "package.json"), JSON.stringify({ ...pkg, main: "index.js", types: "index.d.ts" }));
    for (const p of pages) writeFileSync(path.join(program, `${p.name}.ts`), `${example(p.text, "typescript")}export {};\n`);
    const options = ["--noEmit", "--strict", "--module", "commonjs", "--target", "es2022", "--types", "node"];
    expect(pages.length).toBe(Object.keys(schema.resources).length);
    run(tsc, [...options, ...pages.map((p) => `${p.name}.ts`)], program);
    // The check is real: an input the resource does not have fails to compile.
    const pool = example(pages.find((p) => p.name === "cmassh-node-pool")!.text, "typescript");
    writeFileSync(path.join(program, "wrong.ts"), `${pool.replace("count: ", "nodeCount: ")}export {};\n`);
    expect(failure(() => run(tsc, [...options, "wrong.ts"], program))).toMatch(/'nodeCount' does not exist/);
  });

  it("the Go SDK builds on the CLI's Go SDK, and the reference pages' Go examples build against it", () => {
    const sdk = path.join(out, "go");
    expect(readFileSync(path.join(sdk, "go.mod"), "utf8")).toContain("require github.com/pulumi/pulumi/sdk/v3 v3.259.0");
    const program = path.join(out, "go-program");
    mkdirSync(program);
    writeFileSync(
      path.join(program, "go.mod"),
      [
        "module example",
        "",
        "go 1.25",
        "",
        "require github.com/clusterform/clusterform/sdk/go v0.0.0",
        "",
        `replace github.com/clusterform/clusterform/sdk/go => ${sdk}`,
        "",
      ].join("\n"),
    );
    for (const p of pages) {
      mkdirSync(path.join(program, p.name));
      writeFileSync(path.join(program, p.name, "main.go"), example(p.text, "go"));
    }
    run("go", ["mod", "tidy"], program, goEnv);
    // The SDK's packages compiled; the examples type-checked by vet (linking eight programs of
    // about 30 MB each would check nothing more and cost minutes on a busy machine).
    run("go", ["mod", "tidy"], sdk, goEnv);
    run("go", ["build", "./..."], sdk, goEnv);
    run("go", ["vet", "./..."], program, goEnv);
    // The examples are laid out as gofmt would (gofmt -l lists the files it would change).
    expect(run("gofmt", ["-l", "."], program, goEnv)).toBe("");
    expect(existsSync(path.join(program, "go.sum"))).toBe(true);
  });

  it("the Python SDK's files compile", () => {
    const sdk = path.join(out, "python");
    const sources = files(sdk).filter((f) => f.endsWith(".py"));
    expect(sources).toContain(path.join("pulumi_clusterform", "cmassh", "node_pool.py"));
    run("python3", ["-m", "py_compile", ...sources], sdk);
    expect(readFileSync(path.join(sdk, "setup.py"), "utf8")).toContain(`VERSION = "${schema.version}"`);
  });

  it("the .NET SDK is generated (not built: no .NET toolchain on these machines)", () => {
    const sdk = path.join(out, "dotnet");
    const pool = readFileSync(path.join(sdk, "Cmassh", "NodePool.cs"), "utf8");
    expect(pool).toContain("public partial class NodePool : global::Pulumi.CustomResource");
    expect(pool).toContain('[Input("count", required: true)]');
    expect(files(sdk)).toContain("Clusterform.Clusterform.csproj");
  });
});

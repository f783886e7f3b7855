import { execFileSync } from "node:child_process";
import { existsSync, symlinkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { codeBlocks, section, sectionFiles } from "../../tools/reference-docs/doc-examples";
import { PLUGIN_DOWNLOAD_URL } from "../../provider/cli/codegen/pulumi-schema";
import { repoRoot, workDir } from "../harness/paths";
import { packageWorkspace, PULUMI_SDK_VERSION } from "../harness/workspace";

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
  const tsc = path.join(repoRoot(), "node_modules", ".bin", "tsc");
  const schema = JSON.parse(readFileSync(schemaFile, "utf8"));
  /** The committed reference page of every resource (test/unit/reference-docs.test.ts keeps them generated), by file name without .md. */
  const reference = path.join(repoRoot(), "docs", "reference");
  const pages = readdirSync(reference)
    .map((f) => ({ name: f.replace(/\.md$/, ""), text: readFileSync(path.join(reference, f), "utf8") }))
    .filter((p) => p.text.includes("## Example"));

  beforeAll(() => {
    // Under the repository, so the Node SDK resolves @pulumi/pulumi and typescript from its node_modules.
    mkdirSync(workDir(), { recursive: true });
    out = mkdtempSync(path.join(workDir(), "sdks-"));
    run("bash", [path.join(repoRoot(), "scripts", "generate-sdks.sh"), schemaFile, out], repoRoot());
  }, 900_000);

  it("the Node.js SDK compiles with tsc", () => {
    const sdk = path.join(out, "nodejs");
    const pkg = JSON.parse(readFileSync(path.join(sdk, "package.json"), "utf8"));
    // `server`: the schema's pluginDownloadURL, where the engine fetches the plugin a program of this SDK needs.
    expect(pkg.pulumi).toEqual({ resource: true, name: "clusterform", version: schema.version, server: schema.pluginDownloadURL });
    expect(schema.pluginDownloadURL).toBe(PLUGIN_DOWNLOAD_URL);
    run(tsc, ["-p", path.join(sdk, "tsconfig.json")], sdk);
    expect(files(path.join(sdk, "bin"))).toContain(path.join("cmassh", "nodePool.js"));
  });

  it("the reference pages' TypeScript examples and the README's TypeScript start compile against the packed package", () => {
    // Below a folder whose node_modules holds the packed package and @pulumi/pulumi, as a user installs them.
    const workspace = packageWorkspace();
    const program = mkdtempSync(path.join(workspace, "ts-examples-"));
    const examples = pages.map((p) => ({ name: p.name, code: example(p.text, "typescript") }));
    for (const e of examples) {
      // What users install: the plugin's classes of the npm package.
      expect({ page: e.name, imports: e.code.match(/from "[^"]+"/g) }).toEqual({ page: e.name, imports: ['from "clusterform/native"'] });
      writeFileSync(path.join(program, `${e.name}.ts`), `${e.code}export {};\n`);
    }
    expect(examples.length).toBe(Object.keys(schema.resources).length);
    // The README's tsconfig.json, the one a user copies, for the pages' examples too.
    const readme = sectionFiles(readFileSync(path.join(repoRoot(), "README.md"), "utf8"), "TypeScript with the dynamic classes");
    expect(Object.keys(readme).sort()).toEqual(["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"]);
    const tsconfig = JSON.parse(readme["tsconfig.json"]);
    writeFileSync(path.join(program, "tsconfig.json"), JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, noEmit: true }, files: examples.map((e) => `${e.name}.ts`) }));
    run(tsc, ["-p", "tsconfig.json"], program);
    // The check is real: an input the resource does not have fails to compile.
    const pool = examples.find((e) => e.name === "cmassh-node-pool")!.code;
    writeFileSync(path.join(program, "wrong.ts"), `${pool.replace("count: ", "nodeCount: ")}export {};\n`);
    writeFileSync(path.join(program, "tsconfig.json"), JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, noEmit: true }, files: ["wrong.ts"] }));
    expect(failure(() => run(tsc, ["-p", "tsconfig.json"], program))).toMatch(/'nodeCount' does not exist/);

    // The README's start as a user lays it out: its package.json asks for an @pulumi/pulumi the
    // installed one satisfies, and the package comes from `npm install` of this version's tarball by
    // its path (test/unit/readme-starts.test.ts checks every start's install line); index.ts compiles
    // with its tsconfig.json, then with the native plugin's classes, as its next section says.
    const manifest = JSON.parse(readme["package.json"]);
    const own = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8"));
    expect(manifest.main).toBe("index.ts");
    expect(manifest.dependencies.clusterform).toBeUndefined();
    const install = codeBlocks(section(readFileSync(path.join(repoRoot(), "README.md"), "utf8"), "TypeScript with the dynamic classes"), "sh")[0].split("\n")[0];
    expect(install).toMatch(new RegExp(`^npm install /path/to/clusterform-${own.version.replace(/\./g, "\\.")}\\.tgz\\s`));
    expect(manifest.dependencies["@pulumi/pulumi"]).toBe(`^${PULUMI_SDK_VERSION}`);
    expect(parse(readme["Pulumi.yaml"]).runtime).toBe("nodejs");
    const start = mkdtempSync(path.join(workspace, "readme-ts-"));
    for (const f of ["index.ts", "tsconfig.json"]) writeFileSync(path.join(start, f), readme[f]);
    run(tsc, ["-p", "tsconfig.json", "--noEmit"], start);
    const native = readme["index.ts"].replace('from "clusterform";', 'from "clusterform/native";');
    expect(native).not.toBe(readme["index.ts"]);
    writeFileSync(path.join(start, "index.ts"), native);
    run(tsc, ["-p", "tsconfig.json", "--noEmit"], start);
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

    // The README's Go start, as a user follows it: its main.go, its `go mod` commands as written
    // (HOME holding the SDK where its generate command writes it), then vet (type-checks the program).
    const readme = readFileSync(path.join(repoRoot(), "README.md"), "utf8");
    const files = sectionFiles(readme, "Go");
    expect(Object.keys(files).sort()).toEqual(["Pulumi.yaml", "main.go"]);
    expect(parse(files["Pulumi.yaml"]).runtime).toBe("go");
    const commands = codeBlocks(section(readme, "Go"), "sh").flatMap((b) => b.split("\n"));
    const generate = commands.find((c) => c.startsWith("bash scripts/generate-sdks.sh "));
    expect(generate).toMatch(/^bash scripts\/generate-sdks\.sh schema\.json ~\/clusterform-sdks go\b/);
    const home = mkdtempSync(path.join(out, "home-"));
    symlinkSync(out, path.join(home, "clusterform-sdks"));
    const start = path.join(home, "my-clusters-go");
    mkdirSync(start);
    writeFileSync(path.join(start, "main.go"), files["main.go"]);
    const goMod = commands.filter((c) => c.startsWith("go mod ")).map((c) => c.replace(/\s+#.*$/, ""));
    expect(goMod.map((c) => c.split(" ").slice(0, 3).join(" "))).toEqual(["go mod init", "go mod edit", "go mod tidy"]);
    for (const c of goMod) run("bash", ["-c", c], start, { ...goEnv, HOME: home });
    run("go", ["vet", "."], start, goEnv);
    expect(run("gofmt", ["-l", "."], start, goEnv)).toBe("");
  });

  it("the reference pages' lookup examples compile: TypeScript against the packed package, Go vetted against the Go SDK, Python byte-compiled", () => {
    const lookups = pages.flatMap((p) =>
      [...p.text.matchAll(/^### (get\w+)$/gm)].map((m) => ({ name: `${p.name}-${m[1]}`, text: section(p.text, m[1]) })),
    );
    expect(lookups.length).toBe(Object.keys(schema.functions).length);
    const workspace = packageWorkspace();
    const ts = mkdtempSync(path.join(workspace, "ts-lookups-"));
    for (const l of lookups) writeFileSync(path.join(ts, `${l.name}.ts`), codeBlocks(l.text, "typescript")[0]);
    const readme = sectionFiles(readFileSync(path.join(repoRoot(), "README.md"), "utf8"), "TypeScript with the dynamic classes");
    const tsconfig = JSON.parse(readme["tsconfig.json"]);
    writeFileSync(path.join(ts, "tsconfig.json"), JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, noEmit: true }, files: lookups.map((l) => `${l.name}.ts`) }));
    run(tsc, ["-p", "tsconfig.json"], ts);

    const go = path.join(out, "go-lookups");
    mkdirSync(go);
    writeFileSync(path.join(go, "go.mod"), ["module lookups", "", "go 1.25", "", "require github.com/clusterform/clusterform/sdk/go v0.0.0", "", `replace github.com/clusterform/clusterform/sdk/go => ${path.join(out, "go")}`, ""].join("\n"));
    for (const l of lookups) {
      mkdirSync(path.join(go, l.name));
      writeFileSync(path.join(go, l.name, "main.go"), codeBlocks(l.text, "go")[0]);
    }
    run("go", ["mod", "tidy"], go, goEnv);
    run("go", ["vet", "./..."], go, goEnv);
    expect(run("gofmt", ["-l", "."], go, goEnv)).toBe("");

    const py = path.join(out, "py-lookups");
    mkdirSync(py);
    for (const l of lookups) writeFileSync(path.join(py, `${l.name.replace(/-/g, "_")}.py`), codeBlocks(l.text, "python")[0]);
    run("python3", ["-m", "py_compile", ...readdirSync(py).map((f) => path.join(py, f))], py);
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

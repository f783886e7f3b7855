import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";
import * as tar from "tar";
import { folderEntries, writeTarGz } from "./archive.ts";

/** The Go SDK's module path (the schema's `language.go.importBasePath` less its package). */
export const GO_MODULE = "github.com/clusterform/clusterform/sdk/go";
/** The Python SDK's distribution name (the schema's `language.python.packageName`). */
export const PYTHON_PACKAGE = "pulumi_clusterform";
/**
 * The release's Python tools, pinned so two builds of a commit make the same files: the wheel and
 * sdist builders, and LIEF, which takes the code signature off the macOS Node binary (tools/release/macho.ts).
 */
export const PYTHON_BUILD_TOOLS = ["build==1.6.1", "setuptools==84.2.1", "wheel==0.48.0", "lief==1.0.0"];

function cacheDir(): string {
  return process.env.CLUSTERFORM_CACHE ?? path.join(homedir(), ".cache", "clusterform");
}

/** `npm pack` of the built package (dist/ must be current: the release runs `npm run build` first). */
export function packNpm(root: string, out: string): string {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", out], { cwd: root, encoding: "utf8" }),
  ) as { filename: string }[];
  return path.join(out, packed.filename);
}

/** Writes the SDKs of the given languages for `schema` into `dir/<language>` (scripts/generate-sdks.sh). */
export function generateSdks(root: string, schema: string, dir: string, languages: string[]): void {
  execFileSync("bash", [path.join(root, "scripts", "generate-sdks.sh"), schema, dir, languages.join(",")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/**
 * The Python of the release's build tools: a virtual environment in the cache holding the pinned
 * {@link PYTHON_BUILD_TOOLS} (made on first use, from PyPI).
 */
export function pythonBuildEnv(): string {
  const dir = path.join(cacheDir(), "python", `build-${PYTHON_BUILD_TOOLS.join("-").replace(/[^a-z0-9.-]/gi, "_")}`);
  const python = path.join(dir, "bin", "python");
  // A virtual environment records its own path, so it is made in place; the marker says it is whole.
  const done = path.join(dir, ".complete");
  if (existsSync(done)) return python;
  rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync(process.env.CLUSTERFORM_PYTHON ?? "python3", ["-m", "venv", dir], { stdio: "inherit" });
    execFileSync(python, ["-m", "pip", "install", "--quiet", ...PYTHON_BUILD_TOOLS], { stdio: "inherit" });
    writeFileSync(done, `${PYTHON_BUILD_TOOLS.join("\n")}\n`);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return python;
}

/**
 * Builds the Python SDK's wheel and sdist from the generated package in `sdkDir` (with a README
 * of ours, the generator writing none), the sdist rewritten so its bytes depend on its files only.
 */
export function buildPython(root: string, sdkDir: string, out: string, time: number): string[] {
  writeFileSync(path.join(sdkDir, "README.md"), readFileSync(path.join(root, "tools", "release", "python-readme.md"), "utf8"));
  const dist = mkdtempSync(path.join(tmpdir(), "clusterform-pydist-"));
  try {
    execFileSync(pythonBuildEnv(), ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", dist, sdkDir], {
      env: { ...process.env, SOURCE_DATE_EPOCH: String(time) },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const files: string[] = [];
    for (const name of readdirSync(dist).sort()) {
      const target = path.join(out, name);
      copyFileSync(path.join(dist, name), target);
      files.push(target);
    }
    return files;
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}

/**
 * Rewrites a `.tar.gz` with its files in name order, one timestamp and portable headers (setuptools
 * writes an sdist's file times and the gzip time as they are).
 */
export async function normalizeTarGz(file: string, time: number): Promise<void> {
  const stage = mkdtempSync(path.join(tmpdir(), "clusterform-untar-"));
  try {
    await tar.x({ file, cwd: stage });
    await writeTarGz(file, folderEntries(stage), new Date(time * 1000));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * Writes the Go SDK as a module proxy serves it, under `<out>/goproxy/` (GOPROXY protocol, made by
 * tools/gomodzip with golang.org/x/mod/zip), and its module zip as a release asset.
 */
export function writeGoModule(root: string, sdkDir: string, out: string, version: string, time: number): string {
  const tool = goModZip(root);
  const proxy = path.join(out, "goproxy");
  execFileSync(
    tool,
    ["-dir", sdkDir, "-module", GO_MODULE, "-version", `v${version}`, "-time", new Date(time * 1000).toISOString().replace(".000Z", "Z"), "-out", proxy],
    { stdio: "inherit" },
  );
  const asset = path.join(out, `clusterform-go-sdk-v${version}.zip`);
  copyFileSync(path.join(proxy, ...GO_MODULE.split("/"), "@v", `v${version}.zip`), asset);
  return asset;
}

/** tools/gomodzip, built once per version of its sources into the cache. */
function goModZip(root: string): string {
  const src = path.join(root, "tools", "gomodzip");
  const key = execFileSync("sh", ["-c", "cat main.go go.mod go.sum | sha256sum | cut -c1-16"], { cwd: src, encoding: "utf8" }).trim();
  const binary = path.join(cacheDir(), "gomodzip", key, "gomodzip");
  if (existsSync(binary)) return binary;
  execFileSync("go", ["build", "-trimpath", "-o", binary, "."], {
    cwd: src,
    env: {
      ...process.env,
      CGO_ENABLED: "0",
      GOTOOLCHAIN: "local",
      GOFLAGS: "-modcacherw",
      GOMODCACHE: process.env.GOMODCACHE ?? path.join(cacheDir(), "go", "mod"),
      GOCACHE: process.env.GOCACHE ?? path.join(cacheDir(), "go", "build"),
    },
    stdio: "inherit",
  });
  return binary;
}

/**
 * The .NET package, with `dotnet pack`, where a .NET SDK is installed; otherwise why not. These
 * machines have none (Debian 12 packages no .NET SDK, and NuGet, which `dotnet pack` needs for
 * Pulumi's own package, is not reachable), so here it is always the reason.
 */
export function buildDotnet(root: string, schema: string, work: string, out: string): { file?: string; skipped?: string } {
  try {
    execFileSync("dotnet", ["--version"], { stdio: "ignore" });
  } catch {
    return { skipped: "no .NET SDK on PATH (`dotnet` not found): the .NET package is not built" };
  }
  generateSdks(root, schema, work, ["dotnet"]);
  execFileSync("dotnet", ["pack", "-c", "Release", "-o", out, "-p:ContinuousIntegrationBuild=true"], {
    cwd: path.join(work, "dotnet"),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const nupkg = readdirSync(out).find((f) => f.endsWith(".nupkg"));
  return nupkg ? { file: path.join(out, nupkg) } : { skipped: "dotnet pack wrote no .nupkg" };
}

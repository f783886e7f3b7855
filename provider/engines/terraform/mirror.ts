import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";

/** The provider's address: `source = "registry.opentofu.org/clusterform/clusterform"` in HCL. */
export const PROVIDER_HOST = "registry.opentofu.org";
export const PROVIDER_NAMESPACE = "clusterform";
export const PROVIDER_TYPE_NAME = "clusterform";

/** What {@link writeMirror} laid out. */
export interface MirrorLayout {
  /** The folder to name in `filesystem_mirror { path = ... }`. */
  mirror: string;
  /** The unpacked provider package: the folder tofu hashes (`h1:`) into the lock file. */
  packageDir: string;
  /** The provider version: the package's version. */
  version: string;
  /** The registry host of the provider's address. */
  host: string;
}

/**
 * Lays out a filesystem mirror of this provider under `mirror`, for `tofu init` without a registry.
 * The provider package holds a copy of the code it runs (this package's dist/ and its runtime
 * dependencies), not a pointer into node_modules: the lock file's `h1:` hash covers every file in
 * the package folder, so it then covers the code that runs. Node itself comes from PATH.
 * @param host - the registry host of the provider's address: `registry.terraform.io` for Terraform's CLI. @default registry.opentofu.org
 * @param packageRoot - this package's folder. @default two levels above dist/provider/engines/terraform
 */
export function writeMirror(mirror: string, host = PROVIDER_HOST, packageRoot = path.resolve(__dirname, "..", "..", "..", "..")): MirrorLayout {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string; dependencies?: Record<string, string> };
  const platform = `${process.platform === "win32" ? "windows" : process.platform}_${process.arch === "x64" ? "amd64" : process.arch}`;
  const packageDir = path.join(mirror, host, PROVIDER_NAMESPACE, PROVIDER_TYPE_NAME, pkg.version, platform);
  rmSync(packageDir, { recursive: true, force: true });
  const lib = path.join(packageDir, "lib");
  mkdirSync(lib, { recursive: true });
  const skip = (src: string) => !/\.(test\.[cm]?[jt]s|d\.ts|map)$/.test(src);
  cpSync(path.join(packageRoot, "dist"), path.join(lib, "dist"), { recursive: true, filter: skip });
  cpSync(path.join(packageRoot, "package.json"), path.join(lib, "package.json"));
  copyDependencies(pkg.dependencies ?? {}, packageRoot, path.join(lib, "node_modules"), skip);
  const shim = path.join(packageDir, `terraform-provider-${PROVIDER_TYPE_NAME}_v${pkg.version}`);
  writeFileSync(
    shim,
    [
      "#!/bin/sh",
      "# terraform-provider-clusterform: runs the copy of the provider beside this file with the node on PATH",
      "# (the bundle npm run build makes, else the compiled entry point).",
      'here="$(dirname "$0")/lib/dist/provider/engines/terraform"',
      'entry="$here/bundle.cjs"',
      '[ -f "$entry" ] || entry="$here/main.js"',
      'exec node "$entry" "$@"',
      "",
    ].join("\n"),
  );
  chmodSync(shim, 0o755);
  return { mirror, packageDir, version: pkg.version, host };
}

/**
 * Copies the runtime dependencies of the package at `from` into `into`, and theirs, recursively:
 * npm hoists a dependency's own dependencies beside it, so copying only the direct ones would leave
 * them behind. A package nested in a dependency's own node_modules comes with that folder; two
 * versions of one name keep npm's layout (the second goes under its dependent).
 * @param copied - source folder -> the folder it was copied to, for packages already copied.
 */
function copyDependencies(deps: Record<string, string>, from: string, into: string, filter: (src: string) => boolean, copied = new Map<string, string>()): void {
  for (const dep of Object.keys(deps)) {
    const source = findPackage(dep, from);
    if (copied.has(source)) continue;
    const within = copied.get(from);
    let target: string;
    if (within !== undefined && source.startsWith(`${from}${path.sep}`)) {
      target = path.join(within, path.relative(from, source)); // came with its dependent's folder
    } else {
      const top = path.join(into, dep);
      target = [...copied.values()].includes(top) ? path.join(within ?? into, "node_modules", dep) : top;
      cpSync(source, target, { recursive: true, filter });
    }
    copied.set(source, target);
    type Manifest = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    const own = JSON.parse(readFileSync(path.join(source, "package.json"), "utf8")) as Manifest;
    // Optional and peer dependencies count when installed (npm installs peers; optional builds of other platforms are absent).
    const installed = Object.fromEntries(Object.entries({ ...own.peerDependencies, ...own.optionalDependencies }).filter(([name]) => canFind(name, source)));
    copyDependencies({ ...own.dependencies, ...installed }, source, into, filter, copied);
  }
}

function canFind(name: string, from: string): boolean {
  try {
    findPackage(name, from);
    return true;
  } catch {
    return false;
  }
}

/** The folder of an installed dependency, as Node would resolve it from `from`. */
function findPackage(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`cannot find the dependency ${name} from ${from}: install the package's dependencies first`);
  }
}

/** The CLI configuration block that makes tofu install this provider from `mirror`. */
export function mirrorCliConfig(mirror: string, host = PROVIDER_HOST): string {
  return [
    "provider_installation {",
    "  filesystem_mirror {",
    `    path    = ${JSON.stringify(path.resolve(mirror))}`,
    `    include = ["${host}/${PROVIDER_NAMESPACE}/*"]`,
    "  }",
    "  direct {",
    `    exclude = ["${host}/${PROVIDER_NAMESPACE}/*"]`,
    "  }",
    "}",
    "",
  ].join("\n");
}

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
  for (const dep of Object.keys(pkg.dependencies ?? {})) {
    const from = findPackage(dep, packageRoot);
    cpSync(from, path.join(lib, "node_modules", dep), { recursive: true, filter: skip });
  }
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

#!/usr/bin/env node
/**
 * `clusterform-plugin-tarball [file]`: writes a self-contained plugin tarball for
 * `pulumi plugin install resource clusterform <version> --file <file>`: the plugin shim at its root,
 * this package's compiled code, and every module it loads at run time (@pulumi/pulumi included),
 * copied from where this installed package resolves them. Needs no network; uses the system `tar`.
 */
// First: the Node.js check runs before anything that needs a newer Node loads.
import "../../../common/node-version";
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

const packageRoot = path.resolve(__dirname, "..", "..", "..", "..");

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
}

/** The folder of package `name` as Node resolves it from `from`, or undefined when it is not installed. */
function resolvePackage(name: string, from: string): string | undefined {
  const paths: string[] = [];
  for (let dir = from; ; dir = path.dirname(dir)) {
    paths.push(path.join(dir, "node_modules", name));
    if (path.dirname(dir) === dir) break;
  }
  return paths.find((p) => existsSync(path.join(p, "package.json")));
}

/**
 * Every package the plugin loads: this package's dependencies and peer dependencies, then theirs.
 * A package nested inside another's folder travels with that folder.
 */
function closure(): Map<string, string> {
  const found = new Map<string, string>();
  const queue: [string, string][] = [];
  const own = manifest(packageRoot);
  for (const name of Object.keys({ ...own.dependencies, ...own.peerDependencies })) queue.push([name, packageRoot]);
  while (queue.length > 0) {
    const [name, from] = queue.shift()!;
    const dir = resolvePackage(name, from);
    if (!dir || [...found.values()].some((d) => dir === d || dir.startsWith(`${d}${path.sep}`))) continue;
    found.set(name, dir);
    for (const dep of Object.keys(manifest(dir).dependencies ?? {})) queue.push([dep, dir]);
  }
  return found;
}

function main(): void {
  const own = manifest(packageRoot);
  const out = path.resolve(process.argv[2] ?? `pulumi-resource-clusterform-v${own.version}.tar.gz`);
  const stage = mkdtempSync(path.join(tmpdir(), "clusterform-plugin-"));
  try {
    cpSync(path.join(packageRoot, "plugin", "pulumi-resource-clusterform"), path.join(stage, "pulumi-resource-clusterform"));
    chmodSync(path.join(stage, "pulumi-resource-clusterform"), 0o755);
    cpSync(path.join(packageRoot, "package.json"), path.join(stage, "package.json"));
    cpSync(path.join(packageRoot, "dist"), path.join(stage, "dist"), { recursive: true });
    if (existsSync(path.join(packageRoot, "schema.json"))) cpSync(path.join(packageRoot, "schema.json"), path.join(stage, "schema.json"));
    const modules = closure();
    if (!modules.has("@pulumi/pulumi")) throw new Error("clusterform-plugin-tarball: @pulumi/pulumi is not installed beside clusterform; install it first (npm install @pulumi/pulumi)");
    // `.bin` folders hold symlinks to other packages' scripts: Pulumi refuses links in a plugin tarball, and the plugin runs none of them.
    const copyable = (src: string) => path.basename(src) !== ".bin";
    for (const [name, dir] of modules) cpSync(dir, path.join(stage, "node_modules", name), { recursive: true, dereference: true, filter: copyable });
    execFileSync("tar", ["-czf", out, "-C", stage, "."]);
    console.log(out);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

main();

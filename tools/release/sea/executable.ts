import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { inject } from "postject";
import { removeMachOSignature } from "../macho.ts";
import { exeSuffix, HOST_NODES, nodeBinary, runnerFor, runsHere, TARGETS, type Target } from "../node-binaries.ts";
import type { SeaProgram } from "./programs.ts";
import { type DeferredShapes, seaScript } from "./script.ts";

/**
 * How the program's start is prepared inside the blob: a V8 startup snapshot (the modules already
 * loaded), a V8 code cache (compiled, loaded at start), or neither (compiled at start). Snapshot
 * and code cache are tied to the platform that made them, so they are made only for a platform
 * whose Node runs here.
 */
export type StartMode = "snapshot" | "code-cache" | "none";

/** The start mode a release uses where the platform's Node runs here (bench/release-start.run.ts measured both). */
export const RELEASE_START_MODE: StartMode = "snapshot";

/** Node's fuse marking a binary that carries a blob (the value the Node docs give for postject). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const DEFERRED_BUILTINS = ["http", "https", "http2", "tls"];

/**
 * V8's string hash seed, fixed for a code cache: the cache holds hashes made with the seed of the
 * Node that wrote it, and V8 refuses a cache made with other flags than the running ones. A random
 * seed makes every build's cache different; a fixed one, passed to the executable too (`execArgv`),
 * makes two builds equal and the cache accepted. (It only weakens V8's defence against inputs
 * crafted to collide in its hash tables, which a provider's own engine does not send.)
 */
const CODE_CACHE_HASH_SEED = "--hash-seed=20261127";

/** Flags of the Node that writes the blob, per start mode (see CODE_CACHE_HASH_SEED; a snapshot keeps the maker's warnings, so none are printed). */
const MAKER_FLAGS: Record<StartMode, string[]> = {
  snapshot: ["--no-warnings", "--random-seed=1", "--hash-seed=1"],
  "code-cache": [CODE_CACHE_HASH_SEED],
  none: [],
};

/** The start mode a target gets: `wanted` where its Node runs here (natively or emulated, {@link runnerFor}), else none. */
export function startModeFor(target: Target, wanted: StartMode): StartMode {
  return runnerFor(target) ? wanted : "none";
}

/**
 * Builds one program as a single executable for one platform: the official Node binary of that
 * platform with the program's blob injected. Work files go to `work`; returns the executable.
 */
export async function buildExecutable(options: {
  root: string;
  program: SeaProgram;
  target: Target;
  mode: StartMode;
  work: string;
}): Promise<string> {
  const { root, program, target, mode, work } = options;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const base = nodeBinary(target);
  // The Node that writes the blob: the target's own where it runs here (a snapshot or code cache is
  // made by the very binary that will load it), else a Linux Node of the same version.
  // A snapshot or code cache is made by the target's own Node, under an emulator where that is how it runs here.
  const runner = runnerFor(target);
  const maker = runner ? [...runner, base] : [nodeBinary(hostNodeFor(target))];
  if (mode !== "none" && !runner) throw new Error(`a ${mode} for ${target.os}/${target.arch} needs that platform's Node to run here (startModeFor)`);
  const script = await seaScript(root, program, mode === "snapshot" ? deferredShapes(maker) : {});
  writeFileSync(path.join(work, "main.cjs"), script);
  // Assets by a path relative to where the blob is made (their contents go into the blob).
  const assets: Record<string, string> = {};
  const assetFiles: Record<string, Buffer> = {};
  for (const [key, file] of Object.entries(program.assets)) {
    assets[key] = `assets/${key}`;
    assetFiles[key] = readFileSync(path.join(root, file));
  }
  const config = {
    main: "main.cjs",
    output: "sea.blob",
    disableExperimentalSEAWarning: true,
    useSnapshot: mode === "snapshot",
    useCodeCache: mode === "code-cache",
    ...(mode === "code-cache" ? { execArgv: [CODE_CACHE_HASH_SEED] } : {}),
    assets,
  };
  writeFileSync(path.join(work, "sea-config.json"), JSON.stringify(config, null, 2));
  writeFileSync(path.join(work, "sea.blob"), makeBlob(maker, MAKER_FLAGS[mode], script, config, assetFiles, `${program.name} for ${target.os}/${target.arch}`));
  const executable = path.join(work, `${program.name}${exeSuffix(target)}`);
  if (target.os === "darwin") removeMachOSignature(base, executable);
  else copyFileSync(base, executable);
  chmodSync(executable, 0o755);
  await inject(executable, "NODE_SEA_BLOB", readFileSync(path.join(work, "sea.blob")), {
    sentinelFuse: SEA_FUSE,
    machoSegmentName: target.os === "darwin" ? "NODE_SEA" : undefined,
  });
  return executable;
}

function hostNodeFor(target: Target): Target {
  const host =
    HOST_NODES[target.nodeVersion] ?? TARGETS.find((t) => runsHere(t) && t.nodeVersion === target.nodeVersion);
  if (!host) throw new Error(`add a Node ${target.nodeVersion} that runs here to HOST_NODES (tools/release/node-binaries.ts) to build for ${target.os}/${target.arch}`);
  return host;
}

/**
 * Runs the Node that writes the blob, in a folder named after what it makes: a startup snapshot
 * holds the main script's path, so two builds of the same script must make it at the same path
 * (one at a time: a lock folder beside it).
 */
function makeBlob(maker: string[], flags: string[], script: string, config: object, assets: Record<string, Buffer>, what: string): Buffer {
  const node = maker[maker.length - 1];
  const hash = createHash("sha256").update(readFileSync(node)).update(flags.join(" ")).update(script).update(JSON.stringify(config));
  for (const [key, data] of Object.entries(assets)) hash.update(key).update(data);
  const key = hash.digest("hex").slice(0, 16);
  const dir = path.join(tmpdir(), `clusterform-sea-${key}`);
  const lock = `${dir}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    writeFileSync(path.join(dir, "main.cjs"), script);
    writeFileSync(path.join(dir, "sea-config.json"), JSON.stringify(config));
    mkdirSync(path.join(dir, "assets"));
    for (const [key, data] of Object.entries(assets)) writeFileSync(path.join(dir, "assets", key), data);
    // A clean environment: a snapshot keeps whatever a module read from it while loading. Node's
    // output (warnings about built-ins in a snapshot) is shown only when it fails.
    const made = spawnSync(maker[0], [...maker.slice(1), ...flags, "--experimental-sea-config", "sea-config.json"], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir },
      encoding: "utf8",
    });
    if (made.status !== 0) throw new Error(`making the blob of ${what} failed (${made.signal ?? `exit ${made.status}`}):\n${made.stdout}${made.stderr}`);
    return readFileSync(path.join(dir, "sea.blob"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The property names and data of the built-ins a snapshot cannot hold, as the given Node (a command: emulator and binary) has them. */
function deferredShapes(node: string[]): DeferredShapes {
  const probe = `
    const out = {};
    for (const name of ${JSON.stringify(DEFERRED_BUILTINS)}) {
      const mod = require("node:" + name);
      const data = {};
      for (const key of Object.keys(mod)) {
        const value = mod[key];
        // Plain data only (constants, METHODS, STATUS_CODES): an instance such as globalAgent is not copied.
        const plain = value !== null && typeof value === "object" && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);
        if (plain || ["string", "number", "boolean"].includes(typeof value)) data[key] = value;
      }
      out[name] = { keys: Object.getOwnPropertyNames(mod), data };
    }
    process.stdout.write(JSON.stringify(out));`;
  return JSON.parse(execFileSync(node[0], [...node.slice(1), "-e", probe], { encoding: "utf8" })) as DeferredShapes;
}

// `npm run release`: writes a registry-shaped release of the built package into dist/release/.
//
//   node tools/release/cli.ts [--out dist/release] [--platforms linux_amd64,linux_arm64,...]
//
// Needs the release signing key in CLUSTERFORM_GPG_PRIVATE_KEY (and its passphrase, if any, in
// CLUSTERFORM_GPG_PASSPHRASE); docs/releasing.md says how a maintainer holds it. File times come
// from SOURCE_DATE_EPOCH, else the commit's time, so two runs from one commit write the same bytes.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { platformName, TARGETS } from "./node-binaries.ts";
import { buildRelease } from "./release.ts";

const usage = "usage: node tools/release/cli.ts [--out <folder>] [--platforms linux_amd64,linux_arm64,darwin_amd64,windows_amd64]";
// Run as `node tools/release/cli.ts`: the repository is two folders up.
const root = path.resolve(path.dirname(process.argv[1] ?? "."), "..", "..");
let values: { out?: string; platforms?: string };
try {
  ({ values } = parseArgs({ options: { out: { type: "string" }, platforms: { type: "string" } } }));
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}
const wanted = values.platforms?.split(",").map((p) => p.trim());
const unknown = wanted?.filter((p) => !TARGETS.some((t) => platformName(t) === p)) ?? [];
if (unknown.length > 0) {
  console.error(`unknown platform(s) ${unknown.join(", ")}; known: ${TARGETS.map(platformName).join(", ")}\n${usage}`);
  process.exit(2);
}
const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
const time = Number(process.env.SOURCE_DATE_EPOCH ?? git("log", "-1", "--format=%ct"));
const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;

async function main(): Promise<void> {
  const summary = await buildRelease({
    root,
    out: path.resolve(root, values.out ?? "dist/release"),
    version,
    commit: git("rev-parse", "HEAD"),
    time,
    targets: TARGETS.filter((t) => !wanted || wanted.includes(platformName(t))),
    log: (line) => console.error(`[release] ${line}`),
  });
  for (const skipped of summary.skipped) console.error(`[release] not built: ${skipped.what}: ${skipped.why}`);
  console.error(`[release] wrote ${summary.assets.length} assets to ${summary.out}`);
}

main().catch((err: unknown) => {
  console.error(`[release] FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { sha256Sums } from "./archive.ts";
import { platformName, runsHere, type Target } from "./node-binaries.ts";
import { writePulumiRelease } from "./pulumi.ts";
import { buildExecutable, RELEASE_START_MODE, type StartMode, startModeFor } from "./sea/executable.ts";
import { seaPrograms } from "./sea/programs.ts";
import { buildDotnet, buildPython, GO_MODULE, generateSdks, normalizeTarGz, packNpm, PYTHON_PACKAGE, writeGoModule } from "./sdks.ts";
import { ReleaseSigner } from "./signing.ts";
import { writeMirrorTree, writeRegistryTree, writeTerraformRelease } from "./terraform.ts";
import { writeTreeArchives } from "./trees.ts";

/** What one run of the release wrote, also written to `release.json` beside the assets. */
export interface ReleaseSummary {
  out: string;
  version: string;
  commit: string;
  sourceDateEpoch: number;
  executables: { program: string; platform: string; startMode: StartMode; bytes: number; ranHere: boolean }[];
  assets: string[];
  /** Each folder of the release (`registry`, `mirror`, `goproxy`) and the asset that carries it. */
  trees: Record<string, string>;
  skipped: { what: string; why: string }[];
}

/**
 * Builds every release file into `out` (emptied first): the engines' single executables per
 * platform, the Terraform provider's zips, manifest, SHA256SUMS and signature, the registry and
 * mirror trees, the Pulumi plugin tarballs and schema, the npm package, the Python wheel and
 * sdist, the Go module (proxy layout and zip), each folder as one archive (a GitHub release holds
 * flat files only), and `<name>_<version>_SHA256SUMS` over all assets.
 */
export async function buildRelease(options: {
  root: string;
  out: string;
  /** Scratch folder (bundles, blobs, generated SDKs). @default .work/release */
  work?: string;
  /** Where the signing key is read from. @default process.env */
  signingEnv?: Readonly<Record<string, string | undefined>>;
  version: string;
  commit: string;
  time: number;
  targets: readonly Target[];
  startMode?: StartMode;
  log?: (line: string) => void;
}): Promise<ReleaseSummary> {
  const { root, out, version, commit, time, targets } = options;
  const log = options.log ?? (() => {});
  const signer = new ReleaseSigner(options.signingEnv);
  try {
    const work = options.work ?? path.join(root, ".work", "release");
    rmSync(out, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const summary: ReleaseSummary = { out, version, commit, sourceDateEpoch: time, executables: [], assets: [], trees: {}, skipped: [] };

    const built = new Map<string, Map<Target, string>>();
    for (const program of seaPrograms()) {
      const executables = new Map<Target, string>();
      for (const target of targets) {
        const mode = startModeFor(target, options.startMode ?? RELEASE_START_MODE);
        log(`${program.name} for ${platformName(target)} (Node ${target.nodeVersion}, start: ${mode})`);
        const file = await buildExecutable({ root, program, target, mode, work: path.join(work, "sea", `${program.name}-${platformName(target)}`) });
        executables.set(target, file);
        summary.executables.push({ program: program.name, platform: platformName(target), startMode: mode, bytes: statSync(file).size, ranHere: runsHere(target) });
      }
      built.set(program.name, executables);
    }

    log("OpenTofu/Terraform provider: zips, manifest, SHA256SUMS, signature, registry and mirror trees");
    const tfExecutables = built.get("terraform-provider-clusterform")!;
    const zips = await writeTerraformRelease({ out, version, executables: tfExecutables, signer, time });
    writeRegistryTree(out, version, zips, signer);
    writeMirrorTree(out, version, zips);

    log("Pulumi plugin tarballs and schema");
    await writePulumiRelease({ out, version, executables: built.get("pulumi-resource-clusterform")!, schemaFile: path.join(root, "schema.json"), time });

    log("npm package");
    packNpm(root, out);

    log("SDKs: Python wheel and sdist, Go module");
    const sdks = path.join(work, "sdks");
    generateSdks(root, path.join(root, "schema.json"), sdks, ["python", "go"]);
    for (const file of buildPython(root, path.join(sdks, "python"), out, time)) {
      if (file.endsWith(".tar.gz")) await normalizeTarGz(file, time);
    }
    writeGoModule(root, path.join(sdks, "go"), out, version, time);
    const dotnet = buildDotnet(root, path.join(root, "schema.json"), sdks, out);
    if (dotnet.skipped) summary.skipped.push({ what: ".NET package (Clusterform on NuGet)", why: dotnet.skipped });

    for (const target of targets.filter((t) => t.os === "darwin" || t.os === "windows")) {
      summary.skipped.push({
        what: `a code signature on the ${platformName(target)} executables`,
        why:
          target.os === "darwin"
            ? "no codesign here: Node's signature is taken off (an unsigned x86_64 executable runs on macOS; sign it again on a Mac, docs/releasing.md)"
            : "no signtool here: Node's Authenticode signature no longer matches once the blob is injected (docs/releasing.md)",
      });
    }
    log("the registry, mirror and module proxy folders, each as one archive");
    summary.trees = await writeTreeArchives(out, version, time);
    const assets = readdirSync(out).filter((f) => statSync(path.join(out, f)).isFile()).sort();
    const sumsFile = `clusterform_${version}_SHA256SUMS`;
    writeFileSync(path.join(out, sumsFile), sha256Sums(assets.map((f) => path.join(out, f))));
    summary.assets = [...assets, sumsFile].sort();
    writeFileSync(path.join(out, "release.json"), `${JSON.stringify({ ...summary, out: undefined, python: PYTHON_PACKAGE, goModule: GO_MODULE }, null, 2)}\n`);
    return summary;
  } finally {
    signer.close();
  }
}

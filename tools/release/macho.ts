import { execFileSync } from "node:child_process";
import { pythonBuildEnv } from "./sdks.ts";

/**
 * Writes `to`: the Mach-O executable `from` without its code signature (LIEF, pinned in
 * PYTHON_BUILD_TOOLS). Node's macOS binaries are signed with the hardened runtime; injecting the
 * blob would leave a signature that no longer matches, which macOS enforces by killing the process.
 * Node's own instructions remove it first (`codesign --remove-signature`), then sign again; there is
 * no codesign here, so the release's macOS executables are unsigned (docs/releasing.md).
 */
export function removeMachOSignature(from: string, to: string): void {
  const script = [
    "import sys, lief",
    "binary = lief.MachO.parse(sys.argv[1]).at(0)",
    "if binary.has_code_signature:",
    "    binary.remove_signature()",
    "binary.write(sys.argv[2])",
  ].join("\n");
  execFileSync(pythonBuildEnv(), ["-c", script, from, to], { stdio: ["ignore", "ignore", "inherit"] });
}

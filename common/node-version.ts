/**
 * The Node.js check every command of the package makes before it loads anything else: each entry
 * point (the `bin` entries of package.json, the plugin shim's entry) imports this file first, for
 * its effect. On an older Node the commands would otherwise die deep in a load, e.g.
 * `ERR_UNKNOWN_BUILTIN_MODULE node:sqlite` (unflagged from 22.13), or start and fail later.
 *
 * The message goes to stderr, never stdout: tofu reads terraform-provider-clusterform's handshake
 * line from stdout and Pulumi reads the plugin's port there. Plain code only (no dependency, no
 * syntax newer than the oldest Node a user may still run), since it must run where the rest cannot.
 *
 * The emulator's entry imports it too: a start-up check shares no platform logic between the
 * provider and the local control plane.
 */

/** The oldest Node.js the package runs on: package.json `engines.node` (node-version.test.ts keeps them equal). */
export const NODE_MIN = "22.13";

/** Makes the check see this version instead of the running one: how the tests run each command as on an old Node. */
export const NODE_VERSION_OVERRIDE = "CLUSTERFORM_TEST_NODE_VERSION";

function parts(version: string): number[] | undefined {
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
}

/**
 * What is wrong with running on Node.js `found`, or undefined when it is new enough.
 * @param found - a version as `process.versions.node` gives it, e.g. `20.19.0`.
 * @param min - the oldest version accepted. @default {@link NODE_MIN}
 */
export function nodeVersionProblem(found: string, min: string = NODE_MIN): string | undefined {
  const have = parts(found);
  const need = parts(min)!;
  if (!have) return `cannot tell which Node.js this is: expected a version such as 22.13.0, got "${found}"`;
  for (let i = 0; i < need.length; i++) {
    if (have[i] > need[i]) return undefined;
    if (have[i] < need[i]) {
      return `Clusterform's commands need Node.js >= ${min} (package.json "engines"), but this is Node.js ${found}`;
    }
  }
  return undefined;
}

/**
 * Ends the process with exit code 1 and a message on stderr naming the Node.js needed and the one
 * found (and where it runs from), unless the running Node.js is new enough.
 */
export function exitUnlessSupportedNode(): void {
  const override = process.env[NODE_VERSION_OVERRIDE];
  const found = override ? override : process.versions.node;
  const problem = nodeVersionProblem(found);
  if (problem === undefined) return;
  process.stderr.write(
    `${problem} (${process.execPath}).\nInstall Node.js ${NODE_MIN} or newer and put it first on PATH, then run the command again.\n`,
  );
  process.exit(1);
}

exitUnlessSupportedNode();

import { CC_PASSWORD } from "../e2e/cyclecloud-support";
import { ALL_KINDS_PLANE_FLAGS } from "./all-kinds";
import { type LocalPlane, mutations, startLocalPlane } from "./local-plane";
import { SENLIN_USER, senlinRest } from "./senlin-stack";
import { openTofuDir, type TofuDir } from "./tofu";
import { packageWorkspace } from "./workspace";
import * as path from "node:path";

/** A local control plane every platform's example runs against, and the installed package. */
export interface TofuPlane {
  plane: LocalPlane;
  /** The folder holding the installed package's `terraform-provider-clusterform` shim. */
  providerDir: string;
  workspace: string;
  /** A working directory for `examples/hcl/<example>`, with the credentials every platform needs. */
  open(example: string, name?: string): TofuDir;
  /**
   * The provider block that stands for what `open` puts in each working directory's environment
   * (endpoint and credentials), for the provider's service run in this process
   * (provider/engines/terraform/testing.ts startTofuProvider).
   */
  providerConfig: Record<string, string>;
  /** The platform mutations (no reads) since audit entry `since`. */
  mutationsSince(since: number): Promise<string[]>;
}

// Each credential of a plane started with ALL_KINDS_PLANE_FLAGS: its provider block attribute, the
// environment variable that gives it instead, and its value.
const CREDENTIALS: readonly (readonly [string, string, string])[] = [
  ["senlin_username", "OS_USERNAME", SENLIN_USER.username],
  ["senlin_password", "OS_PASSWORD", SENLIN_USER.password],
  ["senlin_project_name", "OS_PROJECT_NAME", SENLIN_USER.project],
  ["cyclecloud_username", "CLUSTERFORM_CYCLECLOUD_USERNAME", "admin"],
  ["cyclecloud_password", "CLUSTERFORM_CYCLECLOUD_PASSWORD", CC_PASSWORD],
];

/** The environment that gives the provider every platform's credentials on a plane started with ALL_KINDS_PLANE_FLAGS. */
export const PLATFORM_CREDENTIALS_ENV: Readonly<Record<string, string>> = Object.fromEntries(CREDENTIALS.map(([, variable, value]) => [variable, value]));

/**
 * Installs the packed package the way users do, starts a local control plane that every platform
 * example works against (Keystone user and Senlin profile seeded, CycleCloud password set).
 */
export async function openTofuPlane(opts: { timeScale?: number } = {}): Promise<TofuPlane> {
  const workspace = packageWorkspace();
  const plane = await startLocalPlane({ workspace, flags: ALL_KINDS_PLANE_FLAGS, timeScale: opts.timeScale });
  const rest = await senlinRest(plane);
  await rest.createProfile("web-profile");
  await rest.createProfile("web-profile-2");
  const providerDir = path.join(workspace, "node_modules", "clusterform", "bin");
  return {
    plane,
    providerDir,
    workspace,
    providerConfig: { endpoint: plane.url, ...Object.fromEntries(CREDENTIALS.map(([attribute, , value]) => [attribute, value])) },
    open(example, name = example) {
      const dir = openTofuDir(name, { example, providerDir, endpoint: plane.url });
      Object.assign(dir.env, PLATFORM_CREDENTIALS_ENV);
      return dir;
    },
    async mutationsSince(since) {
      const reads = /^(Get|List|Query|Watch|Describe|Browse)/;
      return mutations(await plane.audit(since))
        .filter((m) => !reads.test(m))
        .map((m) => m.split(" ")[0]);
    },
  };
}

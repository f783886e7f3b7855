import { type EngineStack, openStack } from "./engine";
import { type LocalPlane, startLocalPlane } from "./local-plane";
import { clusterformTarball, copyProgram, installWorkspace } from "./workspace";

/** A stack of the cma-ssh test program wired to its own local control plane. */
export interface CmasshStack {
  plane: LocalPlane;
  stack: EngineStack;
  programDir: string;
  workspace: string;
  /** Sets `test:<key>` to the JSON of each value; `undefined` removes the key. */
  configure(values: Record<string, unknown>): Promise<void>;
}

/** Options of {@link openCmasshStack}. */
export interface CmasshStackOptions {
  /** The local control plane's time scale. @default 0.3 */
  timeScale?: number;
  /** The program under test/e2e/programs. @default "cmassh" */
  program?: string;
  /** The @pulumi/pulumi version the program installs. @default the version the package is built with */
  pulumiVersion?: string;
  /** Extra stack configuration. @default {} */
  config?: Record<string, string>;
}

/** Installs the package, starts a local control plane and opens a stack of `program`. */
export async function openCmasshStack(opts: CmasshStackOptions = {}): Promise<CmasshStack> {
  const name = opts.pulumiVersion ? `cmassh-pulumi-${opts.pulumiVersion}` : "cmassh";
  const workspace = installWorkspace(name, { clusterform: clusterformTarball() }, opts.pulumiVersion);
  const plane = await startLocalPlane({ workspace, timeScale: opts.timeScale });
  const programDir = copyProgram(workspace, opts.program ?? "cmassh");
  const extra = Object.fromEntries(Object.entries(opts.config ?? {}).map(([key, value]) => [key, { value }]));
  const stack = await openStack({ programDir, config: { "clusterform:endpoint": { value: plane.url }, ...extra } });
  return {
    plane,
    stack,
    programDir,
    workspace,
    async configure(values) {
      for (const [key, value] of Object.entries(values)) {
        if (value === undefined) await stack.stack.removeConfig(`test:${key}`);
        else await stack.setConfig(`test:${key}`, JSON.stringify(value));
      }
    },
  };
}

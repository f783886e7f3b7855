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

/** Installs the package, starts a local control plane and opens a stack of `program`. */
export async function openCmasshStack(opts: { timeScale?: number; program?: string } = {}): Promise<CmasshStack> {
  const workspace = installWorkspace("cmassh", { clusterform: clusterformTarball() });
  const plane = await startLocalPlane({ workspace, timeScale: opts.timeScale });
  const programDir = copyProgram(workspace, opts.program ?? "cmassh");
  const stack = await openStack({ programDir, config: { "clusterform:endpoint": { value: plane.url } } });
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

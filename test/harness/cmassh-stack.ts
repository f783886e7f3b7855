import { type EngineStack, openStack } from "./engine";
import { type LocalPlane, startLocalPlane } from "./local-plane";
import { copyProgram, packageWorkspace } from "./workspace";

/** A stack of a test program wired to its own local control plane. */
export interface TestStack {
  plane: LocalPlane;
  stack: EngineStack;
  programDir: string;
  workspace: string;
  /** Sets `test:<key>` to the JSON of each value; `undefined` removes the key. */
  configure(values: Record<string, unknown>): Promise<void>;
}

/** A stack of the cma-ssh test programs. */
export type CmasshStack = TestStack;

/** Options of {@link openTestStack}. */
export interface TestStackOptions {
  /** The program under test/e2e/programs. */
  program: string;
  /** The local control plane's time scale. @default 0.3 */
  timeScale?: number;
  /** The @pulumi/pulumi version the program installs. @default the version the package is built with */
  pulumiVersion?: string;
  /** Extra stack configuration (plain strings). @default {} */
  config?: Record<string, string>;
  /** Extra stack configuration stored as secrets. @default {} */
  secrets?: Record<string, string>;
  /** Extra command-line flags of the local control plane. @default [] */
  planeFlags?: string[];
  /** Environment variables of the engine and provider processes. @default {} */
  env?: Record<string, string>;
}

/**
 * Installs the packed package as users install it, starts a local control plane on a free port and
 * opens a stack of `program` whose `clusterform:endpoint` is that plane.
 */
export async function openTestStack(opts: TestStackOptions): Promise<TestStack> {
  const workspace = packageWorkspace(opts.pulumiVersion);
  const plane = await startLocalPlane({ workspace, timeScale: opts.timeScale, flags: opts.planeFlags });
  const programDir = copyProgram(workspace, opts.program);
  const plain = Object.entries(opts.config ?? {}).map(([key, value]) => [key, { value }]);
  const secret = Object.entries(opts.secrets ?? {}).map(([key, value]) => [key, { value, secret: true }]);
  const stack = await openStack({
    programDir,
    config: { "clusterform:endpoint": { value: plane.url }, ...Object.fromEntries([...plain, ...secret]) },
    env: opts.env,
  });
  return {
    plane,
    stack,
    programDir,
    workspace,
    async configure(values) {
      await stack.configure(Object.fromEntries(Object.entries(values).map(([key, value]) => [`test:${key}`, value === undefined ? undefined : { value: JSON.stringify(value) }])));
    },
  };
}

/** Options of {@link openCmasshStack}: the program defaults to `cmassh`. */
export type CmasshStackOptions = Omit<TestStackOptions, "program"> & { program?: string };

/** Installs the package, starts a local control plane and opens a stack of a cma-ssh program. */
export function openCmasshStack(opts: CmasshStackOptions = {}): Promise<CmasshStack> {
  return openTestStack({ ...opts, program: opts.program ?? "cmassh" });
}

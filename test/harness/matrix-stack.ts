import type { Kind, StateResource } from "./all-kinds";
import type { LocalPlane } from "./local-plane";

/**
 * The engines the reliability matrix runs on: Pulumi with the dynamic providers (the `clusterform`
 * classes), Pulumi with the native plugin (the `clusterform/native` classes), and OpenTofu.
 */
export const ENGINES = ["dynamic", "native", "tofu"] as const;

/** One engine of {@link ENGINES}. */
export type Engine = (typeof ENGINES)[number];

/** A failed engine run: the engine's own report, and each failed resource's diagnostics by kind. */
export class EngineFailure extends Error {
  constructor(
    message: string,
    /** What the engine reported for each resource that failed (one resource per kind in the all-kinds stacks). */
    readonly byKind: ReadonlyMap<Kind, string>,
  ) {
    super(message);
    this.name = "EngineFailure";
  }
}

/** An engine run started as its own process group, so that a test can kill the whole engine. */
export interface EngineRun {
  readonly pid: number;
  /**
   * The kinds with an operation the engine began and has not seen answered: Pulumi's checkpoint
   * on disk holds it as a pending operation; OpenTofu reported its `apply_start` and neither its
   * `apply_complete` nor its `apply_errored`.
   */
  pending(): Set<Kind>;
  running(): boolean;
  /** Settles when the process has exited: undefined when it succeeded, else its failure (a killed run's too). */
  readonly ended: Promise<EngineFailure | undefined>;
}

/** A change an engine plans, from a preview or a plan. */
export interface PlannedChange {
  kind: Kind | undefined;
  op: string;
  name: string;
}

/**
 * One stack of every kind on one engine, against a local control plane: what the matrix rows do
 * with it, whatever the engine. Runs that fail throw {@link EngineFailure}.
 */
export interface MatrixStack {
  readonly engine: Engine;
  readonly plane: LocalPlane;
  /** Moves the program to `round` (see the all-kinds programs) for the runs that follow. */
  configure(values: { round: number }): Promise<void>;
  /** The provider's per-call timeout (`CLUSTERFORM_CALL_TIMEOUT`) for the runs that follow; undefined: its default. */
  setCallTimeout(duration: string | undefined): Promise<void>;
  /** `pulumi up` / `tofu apply`. @param opts.continueOnError - Pulumi's `--continue-on-error` (OpenTofu always carries on with what does not depend on a failure). */
  up(opts?: { continueOnError?: boolean }): Promise<void>;
  /** `pulumi destroy` / `tofu destroy`. */
  destroy(): Promise<void>;
  /** What a preview / plan would change now. */
  planned(): Promise<PlannedChange[]>;
  /** The resources the state names. */
  resources(): Promise<StateResource[]>;
  /** Starts `up` or `destroy` as its own process group (see {@link EngineRun}). */
  start(command: "up" | "destroy"): EngineRun;
  /** What a user does after a killed run, before the next one: `pulumi cancel`; OpenTofu: `tofu import` of the cma-ssh objects the killed apply made and the provider cannot adopt. */
  afterKill(): Promise<void>;
}

/** Options of {@link openMatrixStack}. */
export interface MatrixStackOptions {
  /** The time scale of the stack's new plane. */
  timeScale: number;
}

/**
 * Node states. `Ready` is the state clients wait for (scalelib treats `State == "Ready"` as up).
 *
 * | State | Status (group) | Holds or acquires a VM (counts toward quotas) | Billed |
 * |---|---|---|---|
 * | Acquiring | Acquiring | yes | no (Azure bills from Preparing on) |
 * | Preparing | Preparing | yes | yes |
 * | Ready | Ready | yes | yes |
 * | Restarting, Reimaging | Preparing | yes | yes |
 * | Terminating, Deallocating | Off | yes | yes |
 * | Deallocated, Terminated | Off | no | no |
 * | Failed | Failed | no | no |
 */
export type NodeState =
  | "Acquiring"
  | "Preparing"
  | "Ready"
  | "Restarting"
  | "Reimaging"
  | "Terminating"
  | "Deallocating"
  | "Deallocated"
  | "Terminated"
  | "Failed";

/** The states a node passes through while a transition runs. */
export type TransitionalState = "Acquiring" | "Preparing" | "Restarting" | "Reimaging" | "Terminating" | "Deallocating";

/** The status group CycleCloud shows for each state. */
export const STATUS_OF: Readonly<Record<NodeState, string>> = {
  Acquiring: "Acquiring",
  Preparing: "Preparing",
  Ready: "Ready",
  Restarting: "Preparing",
  Reimaging: "Preparing",
  Terminating: "Off",
  Deallocating: "Off",
  Deallocated: "Off",
  Terminated: "Off",
  Failed: "Failed",
};

/** States that hold or are acquiring a VM: they count toward bucket, nodearray and cluster limits. */
export const ACTIVE_STATES: ReadonlySet<NodeState> = new Set<NodeState>([
  "Acquiring",
  "Preparing",
  "Ready",
  "Restarting",
  "Reimaging",
  "Terminating",
  "Deallocating",
]);

/** How long each transitional state lasts at time scale 1, in milliseconds. */
export const STEP_DURATION_MS: Readonly<Record<TransitionalState, number>> = {
  Acquiring: 2000,
  Preparing: 3000,
  Restarting: 2000,
  Reimaging: 3000,
  Terminating: 2000,
  Deallocating: 2000,
};

/** How long after it is Ready a node hit by a `preempt-node` fault is preempted, at time scale 1, unless the fault gives `delayMs`. */
export const PREEMPT_AFTER_MS = 10_000;

/** What each management action or creation does to a node. */
export type TransitionKind = "create" | "start" | "terminate" | "remove" | "deallocate" | "restart" | "reimage";

interface TransitionSpec {
  steps: readonly TransitionalState[];
  /** The state when every step has passed (unless the transition fails). */
  final: NodeState;
  /** The node's `TargetState` while and after the transition runs. */
  targetState: "Started" | "Terminated" | "Deallocated";
}

/** The steps of every transition. A failing create or start fails when Acquiring ends (a capacity failure). */
export const TRANSITIONS: Readonly<Record<TransitionKind, TransitionSpec>> = {
  create: { steps: ["Acquiring", "Preparing"], final: "Ready", targetState: "Started" },
  start: { steps: ["Acquiring", "Preparing"], final: "Ready", targetState: "Started" },
  terminate: { steps: ["Terminating"], final: "Terminated", targetState: "Terminated" },
  remove: { steps: ["Terminating"], final: "Terminated", targetState: "Terminated" },
  deallocate: { steps: ["Deallocating"], final: "Deallocated", targetState: "Deallocated" },
  restart: { steps: ["Restarting"], final: "Ready", targetState: "Started" },
  reimage: { steps: ["Reimaging"], final: "Ready", targetState: "Started" },
};

/** The `TargetState` of a node resting in each state. */
export const RESTING_TARGET: Readonly<Record<NodeState, string>> = {
  ...Object.fromEntries(Object.values(TRANSITIONS).flatMap((t) => t.steps.map((s) => [s, t.targetState]))),
  Ready: "Started",
  Failed: "Started",
  Deallocated: "Deallocated",
  Terminated: "Terminated",
} as Record<NodeState, string>;

/** A transition in flight; times are absolute epoch milliseconds so it survives a restart. */
export interface NodeTransition {
  kind: TransitionKind;
  startMs: number;
  endMs: number;
  /** The time scale the transition was started with. */
  scale: number;
  /** Set when the transition ends in `Failed` with this message. @default undefined (it succeeds) */
  failMessage?: string;
}

function stepMs(state: TransitionalState, scale: number): number {
  return Math.round(STEP_DURATION_MS[state] * scale);
}

/** Plans a transition starting at `nowMs`: a failing one ends after its first step. */
export function planTransition(kind: TransitionKind, nowMs: number, scale: number, failMessage?: string): NodeTransition {
  const steps = TRANSITIONS[kind].steps;
  const counted = failMessage === undefined ? steps : steps.slice(0, 1);
  const durationMs = counted.reduce((sum, s) => sum + stepMs(s, scale), 0);
  return { kind, startMs: nowMs, endMs: nowMs + durationMs, scale, failMessage };
}

/** The state a transition shows at `nowMs`, before it ends. */
export function stateDuring(transition: NodeTransition, nowMs: number): TransitionalState {
  const steps = TRANSITIONS[transition.kind].steps;
  let boundary = transition.startMs;
  for (const step of steps) {
    boundary += stepMs(step, transition.scale);
    if (nowMs < boundary) return step;
  }
  return steps[steps.length - 1];
}

/** The state a transition leaves the node in. */
export function stateAfter(transition: NodeTransition): NodeState {
  return transition.failMessage === undefined ? TRANSITIONS[transition.kind].final : "Failed";
}

/** When a VM acquired by a create or start begins to be billed: as Preparing begins. */
export function billingStartMs(transition: NodeTransition): number {
  return transition.startMs + stepMs("Acquiring", transition.scale);
}

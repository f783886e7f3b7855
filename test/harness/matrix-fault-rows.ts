import { expect } from "vitest";
import { compareWithState, KINDS, type Kind, type KindComparison, kindOf } from "./all-kinds";
import type { AuditEntry, Fault } from "./local-plane";
import { matrixScenario } from "./matrix";
import type { Engine, EngineFailure, MatrixStack, PlannedChange } from "./matrix-stack";
import { ROUNDS } from "./matrix-kill-rows";

// The rows that fault the platform's answers. Every call may take 2 s; a slow answer takes 3.5 s,
// so the provider gives up on it and asks again while the first call is still being served (and,
// for a change, lands late).
export const CALL_TIMEOUT = "2s";
const SLOW_MS = 3_500;

/** The time scale of the fault rows' plane: the faults, not the operations, are what they wait for. */
export const FAULT_TIME_SCALE = 0.05;

/** The API each kind talks to and its mutating calls: the create of round 0, the change of rounds 1 and 2. */
const CALLS: Record<Kind, { api: string; create: string; update: string }> = {
  "cmassh:Cluster": { api: "cmassh", create: "CreateCluster", update: "UpgradeCluster" },
  "cmassh:NodePool": { api: "cmassh", create: "AddNodePool", update: "ScaleNodePool" },
  "peloton:ResourcePool": { api: "peloton", create: "CreateResourcePool", update: "UpdateResourcePool" },
  "peloton:StatelessJob": { api: "peloton", create: "CreateJob", update: "ReplaceJob" },
  "vcluster:VCluster": { api: "vcluster", create: "CreateVCluster", update: "ScaleVCluster" },
  // The snapshot has no in-place field: its change is a replacement, whose create is a new snapshot.
  "vcluster:Snapshot": { api: "vcluster", create: "SnapshotVCluster", update: "SnapshotVCluster" },
  "senlin:Cluster": { api: "senlin", create: "CreateCluster", update: "ResizeCluster" },
  "senlin:Profile": { api: "senlin", create: "CreateProfile", update: "UpdateProfile" },
  "senlin:Policy": { api: "senlin", create: "CreatePolicy", update: "UpdatePolicy" },
  "cyclecloud:NodePool": { api: "cyclecloud", create: "CreateNodes", update: "CreateNodes" },
};

/** A reading call of each API that every round makes (polls of the waits, reads after a change). */
const READS: Record<string, string> = {
  cmassh: "GetCluster",
  peloton: "GetJob",
  vcluster: "GetVCluster",
  senlin: "GetCluster",
  cyclecloud: "GetNodes",
  keystone: "CreateToken",
};

/**
 * Kinds whose create reads with a call of their own rather than their API's {@link READS}: a Senlin
 * profile or policy is made by one call and read only when its create looks for what a lost answer
 * left (after the UNAVAILABLE and the reset of the create round).
 */
const READ_OF: Partial<Record<Kind, string>> = { "senlin:Profile": "ListProfiles", "senlin:Policy": "ListPolicies" };

/** The reading call of a kind's create round. */
const createRead = (kind: Kind) => READ_OF[kind] ?? READS[CALLS[kind].api];

/**
 * The permanent fault of each kind's change in round 2, with the platform message it carries. A
 * failed resource's dependents are not changed in that run, so parents fail in one run and their
 * children (`run` 1) in the next, once the parents' changes have gone through.
 */
const PERMANENT: Record<Kind, Fault & { run: 0 | 1 }> = {
  "cmassh:Cluster": { run: 0, action: "fail-operation", message: "matrix: etcd quorum lost" },
  "cmassh:NodePool": { run: 1, action: "error", code: "INVALID_ARGUMENT", message: "matrix: pool size refused" },
  "peloton:ResourcePool": { run: 0, action: "error", code: "PERMISSION_DENIED", message: "matrix: pool limits are locked" },
  "peloton:StatelessJob": { run: 1, action: "error", code: "INVALID_ARGUMENT", message: "matrix: job config refused" },
  "vcluster:VCluster": { run: 0, action: "error", code: "PERMISSION_DENIED", message: "matrix: scaling is not allowed" },
  "vcluster:Snapshot": { run: 1, action: "error", code: "INVALID_ARGUMENT", message: "matrix: snapshot refused" },
  "senlin:Cluster": { run: 1, action: "fail-operation", message: "matrix: no valid host was found" },
  "senlin:Profile": { run: 0, action: "error", code: "INVALID_ARGUMENT", message: "matrix: profile metadata refused" },
  "senlin:Policy": { run: 0, action: "error", code: "PERMISSION_DENIED", message: "matrix: policy renames are locked" },
  "cyclecloud:NodePool": { run: 0, action: "fail-operation", message: "matrix: no capacity in the region" },
};

const APIS = [...new Set(Object.values(CALLS).map((c) => c.api))];

/**
 * Kinds whose state records the change that failed: the snapshot's change is a replacement (the old
 * snapshot is gone), and a CycleCloud pool records the size asked for with the nodes it has
 * (`nodeNames`), which its next plan compares. Every other kind keeps its round-1 value, so the
 * next run plans the change again, on every engine (OpenTofu too: provider-service.ts
 * `partialState` keeps the kind's value of an input that did not take effect).
 */
const RECORDS_FAILED_CHANGE: ReadonlySet<Kind> = new Set(["vcluster:Snapshot", "cyclecloud:NodePool"]);

/** Kinds whose failed operation (`fail-operation`) leaves the object in ERROR, which the state shows. */
const ERROR_AFTER_FAILURE: ReadonlySet<Kind> = new Set(["cmassh:Cluster", "senlin:Cluster"]);

interface RoundOutcome {
  /** The audit sequence number before the round. */
  since: number;
  /** The up's failure, or undefined when it succeeded. */
  error?: EngineFailure;
  audit: AuditEntry[];
  comparison: Record<Kind, KindComparison>;
  /** Faults the run left unconsumed. */
  left: Fault[];
  /** Each kind's resources' outputs in the state after the round. */
  outputs: Record<Kind, Record<string, unknown>[]>;
}

/** True when the provider sent `operation` again while an earlier call of it was still unanswered: it gave up waiting. */
function outwaited(audit: AuditEntry[], api: string, operation: string): boolean {
  const calls = audit.filter((e) => e.api === api && e.operation === operation);
  return calls.some((slow) => calls.some((again) => again.target === slow.target && again.time > slow.time && again.seq < slow.seq));
}

/** The faults left unconsumed on the API of `api` (Senlin's include Keystone's, which it authenticates at). */
const leftOn = (left: Fault[], api: string) => left.filter((f) => f.api === api || (api === "senlin" && f.api === "keystone"));

const codesOf = (audit: AuditEntry[], api: string, operation: string) =>
  audit.filter((e) => e.api === api && e.operation === operation).map((e) => e.code);

/** The plane holds exactly what the state names for the kind; `held` also asks that it holds something. */
function expectStateTrue(outcome: RoundOutcome, kind: Kind, held = true): void {
  const c = outcome.comparison[kind];
  expect({ orphans: c.orphans, missing: c.missing, duplicates: c.duplicates }).toEqual({ orphans: [], missing: [], duplicates: [] });
  if (held) expect(c.state.length).toBeGreaterThan(0);
}

/**
 * The run failed on no resource of `kind`; when it failed on others, the engine's report names
 * them (a failure no resource owns fails every kind's cell). The cells of the kinds that failed
 * fail, not the row.
 */
function expectNoFailureOf(error: EngineFailure | undefined, kind: Kind): void {
  expect(error?.byKind.get(kind), `${kind}'s diagnostics`).toBeUndefined();
  if (error) expect(error.byKind.size, `the failure names the resources that failed: ${error.message.slice(0, 3000)}`).toBeGreaterThan(0);
}

interface PermanentOutcome {
  /** The runs with the faults of stage 0, then stage 1. */
  failed: RoundOutcome[];
  converged: RoundOutcome;
  planned: PlannedChange[];
}

const permanentFaults = (run: 0 | 1): Fault[] =>
  KINDS.filter((k) => PERMANENT[k].run === run).map((k) => {
    const { run: _, ...fault } = PERMANENT[k];
    return { ...fault, api: CALLS[k].api, operation: CALLS[k].update };
  });

/**
 * Registers the rows that fault the platform's answers, on the stack `stack()` answers: transient
 * faults during create and during update, then permanent faults on change, cleared afterwards. The
 * first row starts from an empty stack; the rows run in this order, each from where the last ended.
 */
export function faultRows(engine: Engine, stack: () => Promise<MatrixStack>): void {
  /** Sets the round, adds the faults, runs up and records what the plane saw. */
  async function round(n: number, faults: Fault[], continueOnError = false): Promise<RoundOutcome> {
    const s = await stack();
    await s.configure({ round: n });
    const since = await s.plane.lastSeq();
    for (const fault of faults) await s.plane.addFault(fault);
    const error = await s.up({ continueOnError }).then(
      () => undefined,
      (err: EngineFailure) => err,
    );
    const left = (await s.plane.admin<{ faults: Fault[] }>("/_local/faults")).faults;
    await s.plane.clearFaults();
    const resources = await s.resources();
    const outputs = Object.fromEntries(KINDS.map((k) => [k, resources.filter((r) => kindOf(r.type) === k).map((r) => r.outputs ?? {})])) as RoundOutcome["outputs"];
    return { since, error, audit: await s.plane.audit(since), comparison: await compareWithState(s.plane, s), left, outputs };
  }

  /**
   * Expects {@link outwaited}. The slow call is audited when the plane finally answers it, which
   * may be after the up has finished: the audit is read again until it is there.
   */
  async function expectOutwaited(outcome: RoundOutcome, api: string, operation: string): Promise<void> {
    const plane = (await stack()).plane;
    await expect.poll(async () => outwaited(await plane.audit(outcome.since), api, operation), { timeout: 4 * SLOW_MS, interval: 250 }).toBe(true);
  }

  let created: Promise<RoundOutcome> | undefined;
  const createRound = () =>
    (created ??= round(0, [
      // Each create fails UNAVAILABLE, then its retry lands but the answer is lost with the connection.
      ...KINDS.flatMap((k): Fault[] => [
        { api: CALLS[k].api, operation: CALLS[k].create, action: "error", code: "UNAVAILABLE" },
        { api: CALLS[k].api, operation: CALLS[k].create, action: "reset", stage: "response" },
      ]),
      ...[...new Set(KINDS.map((k) => `${CALLS[k].api} ${createRead(k)}`))].map((call): Fault => {
        const [api, operation] = call.split(" ");
        return { api, operation, action: "delay", delayMs: SLOW_MS };
      }),
      { api: "keystone", operation: READS.keystone, action: "error", code: "UNAVAILABLE" },
    ]));

  matrixScenario(
    engine,
    "transient faults during create (UNAVAILABLE, then a reset losing the answer; reads answered past the call timeout)",
    createRound,
    async (outcome, kind) => {
      expectNoFailureOf(outcome.error, kind);
      const { api, create } = CALLS[kind];
      expect(leftOn(outcome.left, api)).toEqual([]);
      expect(codesOf(outcome.audit, api, create).filter((c) => c === "UNAVAILABLE").length).toBeGreaterThanOrEqual(2);
      await expectOutwaited(outcome, api, createRead(kind));
      // Senlin's calls authenticate at Keystone first: its API had its fault too.
      if (api === "senlin") expect(codesOf(outcome.audit, "keystone", READS.keystone)).toContain("UNAVAILABLE");
      expectStateTrue(outcome, kind);
    },
  );

  let updated: Promise<RoundOutcome> | undefined;
  const updateRound = () =>
    (updated ??= createRound().then(() =>
      round(1, [
        ...[...new Set(KINDS.map((k) => `${CALLS[k].api} ${CALLS[k].update}`))].map((call): Fault => {
          const [api, operation] = call.split(" ");
          return { api, operation, action: "delay", delayMs: SLOW_MS };
        }),
        ...[...APIS, "keystone"].flatMap((api): Fault[] => [
          { api, operation: READS[api], action: "error", code: "UNAVAILABLE" },
          { api, operation: READS[api], action: "reset" },
        ]),
      ]),
    ));

  matrixScenario(
    engine,
    "transient faults during update (changes answered past the call timeout; reads UNAVAILABLE, then reset)",
    updateRound,
    async (outcome, kind) => {
      expectNoFailureOf(outcome.error, kind);
      const { api, update } = CALLS[kind];
      expect(leftOn(outcome.left, api)).toEqual([]);
      await expectOutwaited(outcome, api, update);
      expect(codesOf(outcome.audit, api, READS[api]).filter((c) => c === "UNAVAILABLE").length).toBeGreaterThanOrEqual(2);
      if (api === "senlin") expect(codesOf(outcome.audit, "keystone", READS.keystone).filter((c) => c === "UNAVAILABLE").length).toBeGreaterThanOrEqual(2);
      expectStateTrue(outcome, kind);
      const [field, value] = ROUNDS[kind];
      expect(outcome.outputs[kind].map(field)).toEqual([value]);
    },
  );

  matrixScenario(
    engine,
    "permanent faults on change (invalid argument, permission denied, failed operation), then cleared",
    async (): Promise<PermanentOutcome> => {
      await updateRound();
      const failed = [await round(2, permanentFaults(0), true), await round(2, permanentFaults(1), true)];
      const converged = await round(2, []);
      return { failed, converged, planned: await (await stack()).planned() };
    },
    ({ failed, converged, planned }, kind) => {
      const run = failed[PERMANENT[kind].run];
      const block = run.error?.byKind.get(kind);
      expect(block, `the diagnostics of ${kind} in: ${run.error?.message.slice(0, 3000) ?? "a run that succeeded"}`).toBeDefined();
      expect(block).toContain(CALLS[kind].update);
      expect(block).toContain(PERMANENT[kind].message);
      expectStateTrue(run, kind, false);
      const [field, roundOne, roundTwo] = ROUNDS[kind];
      if (!RECORDS_FAILED_CHANGE.has(kind)) expect(run.outputs[kind].map(field), "the state keeps the value before the failed change").toEqual([roundOne]);
      if (ERROR_AFTER_FAILURE.has(kind)) expect(run.outputs[kind].map((o) => o.status)).toEqual(["ERROR"]);
      expectNoFailureOf(converged.error, kind);
      expectStateTrue(converged, kind);
      expect(converged.outputs[kind].map(field)).toEqual([roundTwo]);
      expect(planned.filter((c) => c.kind === kind).map((c) => `${c.op} ${c.name}`)).toEqual([]);
    },
  );
}

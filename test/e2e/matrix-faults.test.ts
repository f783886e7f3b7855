import { afterAll, expect } from "vitest";
import { type AllKindsStack, compareWithState, type Kind, KINDS, type KindComparison, openAllKindsStack } from "../harness/all-kinds";
import { changingSteps, type RunResult } from "../harness/engine";
import type { AuditEntry, Fault } from "../harness/local-plane";
import { matrixScenario } from "../harness/matrix";

// Every call may take 2 s; a slow answer takes 3.5 s, so the provider gives up on it and asks again
// while the first call is still being served (and, for a change, lands late).
const CALL_TIMEOUT = "2s";
const SLOW_MS = 3_500;

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

interface RoundOutcome {
  /** The audit sequence number before the round. */
  since: number;
  /** The up's error, or undefined when it succeeded. */
  error?: string;
  audit: AuditEntry[];
  comparison: Record<Kind, KindComparison>;
  /** Faults the run left unconsumed. */
  left: Fault[];
}

let t: AllKindsStack | undefined;
afterAll(async () => {
  await t?.plane.stop();
});

async function stack(): Promise<AllKindsStack> {
  t ??= await openAllKindsStack({ timeScale: 0.05, config: { "clusterform:callTimeout": CALL_TIMEOUT } });
  return t;
}

/** Sets the round, adds the faults, runs up and records what the plane saw. */
async function round(n: number, faults: Fault[], continueOnError = false): Promise<RoundOutcome> {
  const s = await stack();
  await s.configure({ round: n });
  const since = await s.plane.lastSeq();
  for (const fault of faults) await s.plane.addFault(fault);
  const error = await s.stack.up({ continueOnError }).then(
    () => undefined,
    (err: Error) => err.message,
  );
  const left = (await s.plane.admin<{ faults: Fault[] }>("/_local/faults")).faults;
  await s.plane.clearFaults();
  return { since, error, audit: await s.plane.audit(since), comparison: await compareWithState(s.plane, s.stack), left };
}

/** True when the provider sent `operation` again while an earlier call of it was still unanswered: it gave up waiting. */
function outwaited(audit: AuditEntry[], api: string, operation: string): boolean {
  const calls = audit.filter((e) => e.api === api && e.operation === operation);
  return calls.some((slow) => calls.some((again) => again.target === slow.target && again.time > slow.time && again.seq < slow.seq));
}

/**
 * Expects {@link outwaited}. The slow call is audited when the plane finally answers it, which
 * may be after the up has finished: the audit is read again until it is there.
 */
async function expectOutwaited(outcome: RoundOutcome, api: string, operation: string): Promise<void> {
  const plane = (await stack()).plane;
  await expect.poll(async () => outwaited(await plane.audit(outcome.since), api, operation), { timeout: 4 * SLOW_MS, interval: 250 }).toBe(true);
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
  "transient faults during create (UNAVAILABLE, then a reset losing the answer; reads answered past the call timeout)",
  createRound,
  async (outcome, kind) => {
    expect(diagnosticsOf(outcome.error ?? "").get(`${kind} ${NAMES[kind]}`)).toBeUndefined();
    expect(outcome.error).toBeUndefined();
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
  "transient faults during update (changes answered past the call timeout; reads UNAVAILABLE, then reset)",
  updateRound,
  async (outcome, kind) => {
    expect(diagnosticsOf(outcome.error ?? "").get(`${kind} ${NAMES[kind]}`)).toBeUndefined();
    expect(outcome.error).toBeUndefined();
    const { api, update } = CALLS[kind];
    expect(leftOn(outcome.left, api)).toEqual([]);
    await expectOutwaited(outcome, api, update);
    expect(codesOf(outcome.audit, api, READS[api]).filter((c) => c === "UNAVAILABLE").length).toBeGreaterThanOrEqual(2);
    if (api === "senlin") expect(codesOf(outcome.audit, "keystone", READS.keystone).filter((c) => c === "UNAVAILABLE").length).toBeGreaterThanOrEqual(2);
    expectStateTrue(outcome, kind);
  },
);

interface PermanentOutcome {
  /** The runs with the faults of stage 0, then stage 1. */
  failed: RoundOutcome[];
  converged: RoundOutcome;
  preview: RunResult;
}

/** The engine's diagnostics block of each resource: `  <type> (<name>):` and its indented lines. */
function diagnosticsOf(message: string): Map<string, string> {
  const section = /Diagnostics:\n([\s\S]*?)(?:\n(?:Outputs|Resources):|$)/.exec(message)?.[1] ?? "";
  const blocks = new Map<string, string>();
  for (const m of section.matchAll(/^ {2}pulumi-nodejs:dynamic\/(\S+) \(([^)]+)\):\n((?: {4}.*\n?)+)/gm)) blocks.set(`${m[1]} ${m[2]}`, m[3]);
  return blocks;
}

const NAMES: Record<Kind, string> = {
  "cmassh:Cluster": "cluster",
  "cmassh:NodePool": "pool-0",
  "peloton:ResourcePool": "respool",
  "peloton:StatelessJob": "job-0",
  "vcluster:VCluster": "vc",
  "vcluster:Snapshot": "snap",
  "senlin:Cluster": "senlin",
  "senlin:Profile": "profile",
  "senlin:Policy": "policy",
  "cyclecloud:NodePool": "cc",
};

const permanentFaults = (run: 0 | 1): Fault[] =>
  KINDS.filter((k) => PERMANENT[k].run === run).map((k) => {
    const { run: _, ...fault } = PERMANENT[k];
    return { ...fault, api: CALLS[k].api, operation: CALLS[k].update };
  });

matrixScenario(
  "permanent faults on change (invalid argument, permission denied, failed operation), then cleared",
  async (): Promise<PermanentOutcome> => {
    await updateRound();
    const failed = [await round(2, permanentFaults(0), true), await round(2, permanentFaults(1), true)];
    const converged = await round(2, []);
    return { failed, converged, preview: await (await stack()).stack.preview() };
  },
  ({ failed, converged, preview }, kind) => {
    const run = failed[PERMANENT[kind].run];
    const block = diagnosticsOf(run.error ?? "").get(`${kind} ${NAMES[kind]}`);
    expect(block, `the diagnostics of ${kind} ${NAMES[kind]}`).toBeDefined();
    expect(block).toContain(CALLS[kind].update);
    expect(block).toContain(PERMANENT[kind].message);
    expectStateTrue(run, kind, false);
    expect(diagnosticsOf(converged.error ?? "").get(`${kind} ${NAMES[kind]}`)).toBeUndefined();
    expect(converged.error).toBeUndefined();
    expectStateTrue(converged, kind);
    expect(changingSteps(preview).filter((s) => s.type.endsWith(`/${kind}`)).map((s) => `${s.op} ${s.name}`)).toEqual([]);
  },
);

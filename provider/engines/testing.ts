import { expect } from "vitest";
import { READ_OPERATION } from "../../common/audit-reads";
import type { FakeClock } from "../../emulator/clock";
import { removeDataDirs, startTestPlane, type TestPlane } from "../../emulator/testing";
import type { ConfigReader } from "../core/config";
import type { PlannedOperation } from "../core/plan/operation";
import type { ReplaceOrder } from "../core/replacement";
import type { KindType } from "../kinds";
import { kindOf } from "../kinds";
import { PLANE_CREDENTIALS, planeConfig, testHandler } from "../kinds/testing";
import { vclusterClient } from "../kinds/vcluster/common";

/*
 * Test helpers shared by the in-process tests of the three engine adapters (engines/dynamic,
 * engines/pulumi-native, engines/terraform; not built into the package): one kind of every platform
 * as the lifecycle tests drive it, the local control plane they share, its audit of platform calls,
 * steps of one kind that run in order beside the other kinds' steps, and the driver every adapter
 * implements (EngineDriver) so that one table runs on the three engines.
 */

type Props = Record<string, unknown>;

/** The three engines the adapters serve: Pulumi's dynamic providers, the native plugin, OpenTofu. */
export type EngineName = "dynamic" | "pulumi" | "terraform";

export const ENGINE_NAMES: readonly EngineName[] = ["dynamic", "pulumi", "terraform"];

/** What a program declares for one resource. */
export interface Program {
  /** The inputs, in definition keys (each driver names them as its engine's users do). */
  inputs: Props;
  /**
   * The replacement order the program asks for, as each engine's users say it: Pulumi's resource
   * option `deleteBeforeReplace` (the dynamic SDK sends it as a hidden input, the kind's default when
   * unset; the engine takes an explicit one over the native plugin's Diff answer), OpenTofu's
   * `lifecycle { create_before_destroy = true }` for `false` (unset or `true`: destroy first).
   */
  deleteBeforeReplace?: boolean;
}

/** What an engine's preview shows for one resource. */
export interface Previewed {
  /** `same`: no step (OpenTofu: no change in the plan). */
  op: "create" | "update" | "replace" | "same";
  /** For a replacement: the order the engine will run it in. */
  order?: ReplaceOrder;
  /** The platform calls `clusterform plan` reads from this preview (the engine's saved plan or preview JSON), in order. */
  operations: PlannedOperation[];
}

/** What an engine's apply did for one resource: its preview, and the provider calls it made, in order. */
export interface Applied extends Previewed {
  steps: ("create" | "update" | "delete")[];
}

/**
 * One resource of a kind as an engine runs it, each call a run of the engine (`pulumi preview`,
 * `pulumi up`, `tofu plan`, `tofu apply`: a new provider process each), through the adapter's own
 * protocol surface, with the engine's state kept between runs.
 */
export interface DrivenResource {
  readonly engine: EngineName;
  /** The object's outputs now, in definition keys, and its id as `id`; empty before the create. */
  readonly outputs: Props;
  /** Plans the program against the state, changing nothing. */
  preview(program: Program): Promise<Previewed>;
  /** Plans and carries out the change, a replacement in the engine's own order. */
  apply(program: Program): Promise<Applied>;
  /** Reads the object into the state (`pulumi refresh`, `tofu apply -refresh-only`): what changed outside the program shows there. */
  refresh(): Promise<void>;
  /** Deletes the object and forgets the state (`pulumi destroy`, `tofu destroy`). */
  destroy(): Promise<void>;
}

/** One Pulumi resource as the engine's checkpoint keeps it between runs. */
export interface StateEntry {
  id: string;
  /** The inputs Check answered. */
  inputs: Props;
  /** The outputs create, update or read answered. */
  outputs: Props;
}

/**
 * Pulumi's order of a replacement (its step generator): the resource option `deleteBeforeReplace`
 * when the program sets it ("the user can override the provider's decision"), else the Diff's answer.
 */
export function pulumiReplaceOrder(option: boolean | undefined, diffDeleteFirst: boolean): ReplaceOrder {
  return (option ?? diffDeleteFirst) ? "delete-first" : "create-first";
}

/** OpenTofu's order of a replacement: create first under `create_before_destroy` alone, the provider never asked. */
export function tofuReplaceOrder(program: Program): ReplaceOrder {
  return program.deleteBeforeReplace === false ? "create-first" : "delete-first";
}

/** An engine adapter as its engine drives it: opens resources of a stack (a Pulumi stack, a tofu working directory). */
export interface EngineDriver {
  readonly engine: EngineName;
  /** A resource `name` of kind `type` in stack `stack`, served by a provider configured for `plane`. */
  open(type: KindType, name: string, stack: string, plane: AdapterPlane): Promise<DrivenResource>;
}

/** A field of a kind as each engine's users name it, for failures that must name it. */
export interface EngineNames {
  /** The dynamic provider's name: the definition key. */
  dynamic: string;
  /** The native plugin's (Pulumi) name. */
  pulumi: string;
  /** The HCL attribute's name. */
  terraform: string;
}

/** One kind of one platform, as every adapter's lifecycle test drives it (values in definition keys). */
export interface KindCase {
  type: KindType;
  /** The audit's API name of the kind's platform. */
  api: string;
  /** The program's inputs of a new object, without a name (derived in Pulumi). */
  program: Props;
  /** The name an HCL configuration gives the object (`name` is required there), for kinds that have one. */
  name?: string;
  /** The platform writes of a create. */
  createWrites: string[];
  /** An in-place change and the platform writes that carry it out. */
  update: { patch: Props; writes: string[] };
  /** A change that replaces the object and gives the new one another identity (either order can run). */
  replace: Props;
  /** A second change, from {@link replace}'s values, that replaces the object again. */
  replaceAgain: Props;
  /**
   * A change that replaces the object keeping its identity (given its live state), where the kind
   * has one: the native plugin then answers delete-first.
   */
  replaceKeepingIdentity?: (live: Props) => Props;
  /** OpenTofu's create-first replacement where {@link replace} would keep the HCL name's identity. @default replace */
  tofuCreateFirst?: Props;
  /** The platform writes of a delete. */
  deleteWrites: string[];
  /** A later change of an input, after an import, that the next plan must show (the field may be one the platform cannot report). */
  changeAfterImport: Props;
  /** An input the check refuses: the field, the bad value, and the reason after the field's name. */
  bad: { field: string; value: unknown; names: EngineNames; reason: string };
}

const SPEC = (flavor: string) => ({ type: "os.nova.server", version: "1.0", properties: { flavor } });

/** The parent pool every test plane holds for the Peloton replacement (a new parent replaces a pool). */
export const PARENT_POOL = "/infra";

/** One kind of each platform: cma-ssh, CycleCloud, Senlin, Peloton, vcluster. */
export const KIND_CASES: readonly KindCase[] = [
  {
    type: "cmassh:Cluster",
    api: "cmassh",
    program: { kubernetesVersion: "1.31.6", controlPlane: { instanceType: "standard", count: 1 } },
    name: "prod",
    createWrites: ["cmassh:CreateCluster"],
    update: { patch: { kubernetesVersion: "1.32.3" }, writes: ["cmassh:UpgradeCluster"] },
    replace: { controlPlane: { instanceType: "gpu", count: 1 } },
    replaceAgain: { controlPlane: { instanceType: "standard", count: 1 } },
    replaceKeepingIdentity: (live) => ({ name: live.name, controlPlane: { instanceType: "gpu", count: 3 } }),
    tofuCreateFirst: { name: "prod-gpu", controlPlane: { instanceType: "gpu", count: 1 } },
    deleteWrites: ["cmassh:DeleteCluster"],
    // The platform does not report the version: only the engine's old inputs hold it after an import.
    changeAfterImport: { kubernetesVersion: "1.33.1" },
    bad: {
      field: "kubernetesVersion",
      value: "latest",
      names: { dynamic: "kubernetesVersion", pulumi: "kubernetesVersion", terraform: "kubernetes_version" },
      reason: 'must be a version MAJOR.MINOR.PATCH such as "1.13.4" (a leading "v" is allowed), got "latest"',
    },
  },
  {
    type: "cyclecloud:NodePool",
    api: "cyclecloud",
    program: { clusterName: "demo", nodearray: "execute", count: 1 },
    createWrites: ["cyclecloud:CreateNodes"],
    update: { patch: { count: 2 }, writes: ["cyclecloud:CreateNodes"] },
    replace: { nameOffset: 10 },
    replaceAgain: { nameOffset: 1 },
    deleteWrites: ["cyclecloud:RemoveNodes"],
    changeAfterImport: { count: 3 },
    bad: {
      field: "count",
      value: -1,
      names: { dynamic: "count", pulumi: "count", terraform: "node_count" },
      reason: "must be an integer between 0 and 1000, got -1",
    },
  },
  {
    type: "senlin:Profile",
    api: "senlin",
    program: { spec: SPEC("m1.small") },
    name: "web",
    createWrites: ["senlin:CreateProfile"],
    update: { patch: { metadata: { team: "web" } }, writes: ["senlin:UpdateProfile"] },
    replace: { spec: SPEC("m1.medium") },
    replaceAgain: { spec: SPEC("m1.small") },
    deleteWrites: ["senlin:DeleteProfile"],
    changeAfterImport: { metadata: { team: "ml" } },
    bad: {
      field: "name",
      value: "1st",
      names: { dynamic: "name", pulumi: "name", terraform: "name" },
      reason: "must be a Senlin name: 1 to 254 characters, an ASCII letter first, then letters, digits, '_', '.' or '-', got \"1st\"",
    },
  },
  {
    type: "peloton:ResourcePool",
    api: "peloton",
    program: { description: "batch jobs" },
    name: "batch",
    createWrites: ["peloton:CreateResourcePool"],
    update: { patch: { description: "batch and ml jobs" }, writes: ["peloton:UpdateResourcePool"] },
    replace: { parent: PARENT_POOL },
    replaceAgain: { parent: "root" },
    deleteWrites: ["peloton:DeleteResourcePool"],
    changeAfterImport: { description: "ml jobs" },
    bad: {
      field: "policy",
      value: "FIFO",
      names: { dynamic: "policy", pulumi: "policy", terraform: "policy" },
      reason: 'must be one of "PRIORITY_FIFO", got "FIFO"',
    },
  },
  {
    type: "vcluster:VCluster",
    api: "vcluster",
    // `vclusterOwner` is `owner` in Pulumi names, the name of the dynamic SDK's ownership marker.
    // `replicas` written out: left out, an imported vcluster's reported 1 reads as a change to none
    // (the field declares no default value), and OpenTofu's first apply then scales it.
    program: { namespace: "team-a", vclusterOwner: "alice", replicas: 1 },
    name: "dev",
    createWrites: ["vcluster:CreateVCluster"],
    update: { patch: { labels: { env: "dev" } }, writes: ["vcluster:UpdateVCluster"] },
    replace: { namespace: "team-b" },
    replaceAgain: { namespace: "team-c" },
    replaceKeepingIdentity: (live) => ({ name: live.name, distro: "k8s" }),
    deleteWrites: ["vcluster:DeleteVCluster"],
    changeAfterImport: { labels: { env: "prod" } },
    bad: {
      field: "vclusterOwner",
      value: "Bad Owner!",
      names: { dynamic: "vclusterOwner", pulumi: "owner", terraform: "vcluster_owner" },
      reason: "(the `owner` argument) must be a Kubernetes label value: empty or 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, got \"Bad Owner!\"",
    },
  },
];

/** Fields of these kinds whose Pulumi name (native plugin) is another than their definition key. */
export const PULUMI_NAMES: Readonly<Record<string, string>> = { vclusterOwner: "owner", jobOwner: "owner" };

/** Definition-key inputs in Pulumi names, as a program of the native plugin writes them. */
export function pulumiNamed(props: Props): Props {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [PULUMI_NAMES[k] ?? k, v]));
}

/** A local control plane shared by one test file, with the provider configuration that reaches it. */
export interface AdapterPlane {
  t: TestPlane;
  /** `clusterform:endpoint` and the credentials, as a provider reads them. */
  config: ConfigReader;
  /** The same configuration as plain keys without `clusterform:` (endpoint, credentials). */
  settings: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts the plane of one test file: time scale 0 (every operation ends at once), with the fixtures
 * the kinds need (a Peloton parent pool at {@link PARENT_POOL}).
 */
export async function startAdapterPlane(): Promise<AdapterPlane> {
  const plane = await planeWithConfig({ timeScale: 0 });
  await makeFixture(plane.config, "peloton:ResourcePool", { resourceName: "infra", name: "infra" });
  return plane;
}

/**
 * A clock that runs with the wall clock (and can still be moved on): a plane on it ends operations by
 * itself after their duration times the time scale.
 */
export function runningClock(): FakeClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
    set: (epochMs) => {
      offset = epochMs - Date.now();
    },
  };
}

/**
 * A plane without fixtures, its operations taking `timeScale` times their duration on `clock` (at 0,
 * every operation ends at once and the plane's fake clock never needs to move).
 */
export async function planeWithConfig(opts: { timeScale: number; clock?: FakeClock }): Promise<AdapterPlane> {
  const t = await startTestPlane(opts);
  const all: Record<string, string> = { "clusterform:endpoint": t.plane.url, ...PLANE_CREDENTIALS };
  const settings = Object.fromEntries(Object.entries(all).map(([k, v]) => [k.slice("clusterform:".length), v]));
  return {
    t,
    config: planeConfig(t.plane.url),
    settings,
    close: async () => {
      await t.close();
      removeDataDirs();
    },
  };
}

/** Creates a fixture object through the kinds' own test handler (not the adapter under test). */
export async function makeFixture(config: ConfigReader, type: KindType, inputs: Props): Promise<string> {
  const handler = testHandler(await kindOf(type));
  await handler.configure(config);
  const checked = await handler.check({}, { __provider: "fixture", owner: "f1x7ure0f1x7ure0", ...inputs });
  expect(checked.failures).toEqual([]);
  return (await handler.create(checked.inputs)).id;
}

/** One kind of each platform whose create waits for the platform, as the cancel and stop tests drive them. */
export interface WaitingCase {
  type: KindType;
  api: string;
  /** The program's inputs (definition keys), with a user name where the kind has one. */
  program: Props;
  /** The platform write the create makes before it waits. */
  createWrite: string;
}

/** Kinds whose create waits on the platform, one per platform. */
export const WAITING_CASES: readonly WaitingCase[] = [
  { type: "cmassh:Cluster", api: "cmassh", program: { name: "slow", kubernetesVersion: "1.31.6", controlPlane: { instanceType: "standard", count: 1 } }, createWrite: "cmassh:CreateCluster" },
  { type: "cyclecloud:NodePool", api: "cyclecloud", program: { clusterName: "demo", nodearray: "execute", count: 1 }, createWrite: "cyclecloud:CreateNodes" },
  { type: "senlin:Cluster", api: "senlin", program: { name: "slow", profile: "small", desiredCapacity: 1 }, createWrite: "senlin:CreateCluster" },
  {
    type: "peloton:StatelessJob",
    api: "peloton",
    program: { name: "slow", respoolId: "", instanceCount: 1, defaultSpec: { containers: [{ name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 64, diskMb: 128 } }] } },
    createWrite: "peloton:CreateJob",
  },
  { type: "vcluster:Snapshot", api: "vcluster", program: { name: "slow", vclusterName: "base", namespace: "team-a" }, createWrite: "vcluster:SnapshotVCluster" },
];

/**
 * A plane whose operations never end by themselves: time scale 1 on a fake clock that stands
 * still, so a create that waits for its object stays in flight until the engine cancels or stops
 * it. Holds the fixtures {@link WAITING_CASES} need (a Senlin profile `small`, a Peloton pool, a
 * RUNNING vcluster `team-a/base`); returns the cases with the pool's id filled in.
 */
export async function startStuckPlane(): Promise<AdapterPlane & { cases: WaitingCase[] }> {
  const plane = await planeWithConfig({ timeScale: 1 });
  await makeFixture(plane.config, "senlin:Profile", { resourceName: "small", name: "small", spec: SPEC("m1.small") });
  const respoolId = await makeFixture(plane.config, "peloton:ResourcePool", {
    resourceName: "jobs",
    name: "jobs",
    resources: [
      { kind: "cpu", reservation: 4, limit: 16 },
      { kind: "memory", reservation: 1024, limit: 8192 },
    ],
  });
  // Created without waiting, then the clock moves past its creation: a snapshot needs it RUNNING.
  const vclusters = await vclusterClient(plane.config);
  await vclusters.createVCluster({ name: "base", namespace: "team-a" });
  plane.t.clock.advance(3_600_000);
  expect((await vclusters.getVCluster({ name: "base", namespace: "team-a" })).phase).toBe("RUNNING");
  const cases = WAITING_CASES.map((c) => (c.type === "peloton:StatelessJob" ? { ...c, program: { ...c.program, respoolId } } : c));
  return { ...plane, cases };
}

interface AuditRow {
  seq: number;
  api: string;
  operation: string;
  code: string;
}

/** Calls that only read: gets, lists, watches, lookups, and the Keystone token every Senlin call needs. */
export { READ_OPERATION };

async function auditOf(t: TestPlane, api: string, since: number): Promise<AuditRow[]> {
  const { entries } = (await t.http("GET", `/_local/audit?since=${since}`)).body as { entries: AuditRow[] };
  return entries.filter((e) => e.api === api);
}

/** The calls of platform `api` after `since`, as `api:operation`, reads included. */
export async function platformCalls(t: TestPlane, api: string, since: number): Promise<string[]> {
  return (await auditOf(t, api, since)).map((e) => `${e.api}:${e.operation}`);
}

/** The writes of platform `api` after `since`, as `api:operation`, in the order the platform received them. */
export async function platformWrites(t: TestPlane, api: string, since: number): Promise<string[]> {
  return (await auditOf(t, api, since)).filter((e) => !READ_OPERATION.test(e.operation)).map((e) => `${e.api}:${e.operation}`);
}

/**
 * Resolves once platform `api` has received `write` after `since`: the operation a test is about to
 * cancel or stop is then under way on the platform. Reads the audit until then (each read a round
 * trip to the plane, no timer); the test's own time limit bounds it.
 */
export async function untilWritten(t: TestPlane, api: string, since: number, write: string): Promise<void> {
  while (!(await platformWrites(t, api, since)).includes(write)) {
    // The next read of the audit is the wait.
  }
}

/** One entry of the plane's audit log. */
export interface AuditEntry {
  seq: number;
  time: string;
  api: string;
  operation: string;
  target: string;
  requestId: string;
  code: string;
  /** The request body as JSON, secrets redacted; absent when the call had none. */
  request?: unknown;
}

/** Every call of platform `api` after `since`, in the order the platform received them. */
export async function auditEntries(t: TestPlane, api: string, since: number): Promise<AuditEntry[]> {
  const { entries } = (await t.http("GET", `/_local/audit?since=${since}`)).body as { entries: AuditEntry[] };
  return entries.filter((e) => e.api === api);
}

/** The sequence number of the newest audit entry (0 when none). */
export async function auditSeq(t: TestPlane): Promise<number> {
  const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: AuditRow[] };
  return entries.reduce((max, e) => Math.max(max, e.seq), 0);
}

/**
 * The steps of one kind's life, run in the order they are declared while other kinds' steps run
 * beside them (tests of a `describe.concurrent`): each waits for the previous step of its kind, and
 * fails at once, saying so, when that step failed.
 */
export class InOrder {
  private last: Promise<unknown> = Promise.resolve();
  private failed: string | undefined;

  /** Runs `step` once the previous step of this kind is done. */
  step<T>(name: string, step: () => Promise<T>): Promise<T> {
    const run = this.last.then(async () => {
      if (this.failed !== undefined) throw new Error(`not run: the earlier step "${this.failed}" of this kind failed`);
      try {
        return await step();
      } catch (err) {
        this.failed = name;
        throw err;
      }
    });
    this.last = run.catch(() => undefined);
    return run;
  }
}

import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { KIND_TYPES } from "../../provider/kinds/index";
import { type LocalPlane, startLocalPlane } from "./local-plane";
import { repoRoot, workDir } from "./paths";

// What the upgrade-safety tests of the three engines share (test/e2e/upgrade-fixtures.test.ts,
// upgrade-native-fixtures.test.ts, upgrade-tofu-fixtures.test.ts): the fixture directories
// scripts/write-upgrade-fixture.mjs writes, a plane started on a copy of a fixture's database, the
// plane's objects as `<kind> <identity>` strings, and the endpoint a fixture was written against.

/** The fixture root of each engine, under test/fixtures. */
export const FIXTURE_ROOTS = { dynamic: "upgrade", native: "upgrade-native", tofu: "upgrade-tofu" } as const;

/** An engine that has upgrade fixtures. */
export type FixtureEngine = keyof typeof FIXTURE_ROOTS;

/** What scripts/write-upgrade-fixture.mjs records beside the state (fixture.json). */
export interface FixtureMeta {
  version: string;
  /** Absent in fixtures written before the engine option: those are the dynamic provider's. */
  engine?: FixtureEngine;
  /** The Pulumi stack name; absent for tofu. */
  stack?: string;
  project?: string;
  planeFlags: string[];
  timeScale: number;
  /** The plane's URL when the fixture was written. */
  recordedEndpoint: string;
}

/** One fixture directory: its path and its fixture.json. */
export interface Fixture {
  version: string;
  dir: string;
  meta: FixtureMeta;
}

/** The fixtures of `engine`, oldest release first. */
export function fixtures(engine: FixtureEngine): Fixture[] {
  const root = path.join(repoRoot(), "test", "fixtures", FIXTURE_ROOTS[engine]);
  return readdirSync(root)
    .filter((d) => existsSync(path.join(root, d, "fixture.json")))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((version) => ({ version, dir: path.join(root, version), meta: JSON.parse(readFileSync(path.join(root, version, "fixture.json"), "utf8")) as FixtureMeta }));
}

/** Every kind this release serves (provider/kinds/index.ts): the newest fixture of each engine holds each. */
export const ALL_KINDS: readonly string[] = [...KIND_TYPES].sort();

/** The plane's passwords, from its recorded flags: no fixture file may hold them in plain text. */
export function planePasswords(meta: FixtureMeta): string[] {
  return meta.planeFlags.filter((_, i) => meta.planeFlags[i - 1]?.endsWith("-password"));
}

/**
 * Starts the installed package's plane on a copy of the fixture's database (the plane writes to its
 * data folder: never to the committed file), with the fixture's flags and time scale.
 */
export async function startFixturePlane(fixture: Fixture, workspace: string): Promise<LocalPlane> {
  const dataDir = mkdtempSync(path.join(workDir(), "plane-upgrade-"));
  cpSync(path.join(fixture.dir, "plane"), dataDir, { recursive: true });
  return startLocalPlane({ workspace, dataDir, timeScale: fixture.meta.timeScale, flags: fixture.meta.planeFlags });
}

/**
 * `text` with the recorded endpoint replaced by `url` wherever it appears: in Pulumi's provider
 * configuration, and at the start of a Senlin receiver's `alarmUrl` (the plane builds webhook URLs
 * from its own address, as Senlin builds them from its public endpoint), as if the plane had kept its port.
 */
export function rewriteEndpoint(text: string, meta: FixtureMeta, url: string): string {
  return text.replaceAll(meta.recordedEndpoint, url);
}

/**
 * Senlin objects the writer of the first fixtures (0.1.0) created before `up`, as an operator would,
 * for a cluster that named them: no stack owns them, so no inventory counts them.
 */
const OPERATOR_MADE = { profiles: ["web-profile"], policies: ["deletion"] };

interface Views {
  cmassh: { clusters: { name: string; pools: { name: string }[] }[] };
  respools: { respools: { id: string }[] };
  jobs: { jobs: { id: string }[] };
  vclusters: { vclusters: { id: string }[] };
  snapshots: { snapshots: { id: string }[] };
  senlinClusters: { clusters: { id: string }[] };
  senlinNodes: { nodes: { id: string }[] };
  profiles: { profiles: { id: string; name: string }[] };
  policies: { policies: { id: string; name: string }[] };
  receivers: { receivers: { id: string }[] };
  ccNodes: { nodes: { id: string }[] };
}

/**
 * Every object of a managed kind the plane holds, from its admin views, as `<kind> <identity>`
 * strings {@link objectsOf} also produces (Peloton's root pool and {@link OPERATOR_MADE} are the
 * platform's, not a stack's), sorted.
 */
export async function fixtureInventory(plane: LocalPlane): Promise<string[]> {
  const view = <K extends keyof Views>(p: string) => plane.admin<Views[K]>(p);
  const [cmassh, respools, jobs, vclusters, snapshots, senlinClusters, senlinNodes, profiles, policies, receivers, ccNodes] = await Promise.all([
    view<"cmassh">("/_local/cmassh/clusters"),
    view<"respools">("/_local/peloton/respools"),
    view<"jobs">("/_local/peloton/jobs"),
    view<"vclusters">("/_local/vcluster/vclusters"),
    view<"snapshots">("/_local/vcluster/snapshots"),
    view<"senlinClusters">("/_local/senlin/clusters"),
    view<"senlinNodes">("/_local/senlin/nodes"),
    view<"profiles">("/_local/senlin/profiles"),
    view<"policies">("/_local/senlin/policies"),
    view<"receivers">("/_local/senlin/receivers"),
    view<"ccNodes">("/_local/cyclecloud/nodes"),
  ]);
  return [
    ...cmassh.clusters.flatMap((c) => [`cmassh:Cluster ${c.name}`, ...c.pools.map((p) => `cmassh:NodePool ${c.name}/${p.name}`)]),
    ...respools.respools.filter((p) => p.id !== "root").map((p) => `peloton:ResourcePool ${p.id}`),
    ...jobs.jobs.map((j) => `peloton:StatelessJob ${j.id}`),
    ...vclusters.vclusters.map((v) => `vcluster:VCluster ${v.id}`),
    ...snapshots.snapshots.map((s) => `vcluster:Snapshot ${s.id}`),
    ...senlinClusters.clusters.map((c) => `senlin:Cluster ${c.id}`),
    ...senlinNodes.nodes.map((n) => `senlin:Node ${n.id}`),
    ...profiles.profiles.filter((p) => !OPERATOR_MADE.profiles.includes(p.name)).map((p) => `senlin:Profile ${p.id}`),
    ...policies.policies.filter((p) => !OPERATOR_MADE.policies.includes(p.name)).map((p) => `senlin:Policy ${p.id}`),
    ...receivers.receivers.map((r) => `senlin:Receiver ${r.id}`),
    ...ccNodes.nodes.map((n) => `cyclecloud:Node ${n.id}`),
  ].sort();
}

/**
 * The platform objects a resource of `kind` with state id `id` stands for, as {@link fixtureInventory}
 * names them: its own, and for a Senlin cluster or a CycleCloud pool its nodes (`nodeIds`, the
 * output the state records them in). Throws for a kind it does not know, so a new kind cannot slip
 * past the comparison.
 */
export function objectsOf(kind: string, id: string, nodeIds: unknown): string[] {
  const nodes = (what: string) => {
    if (!Array.isArray(nodeIds)) throw new Error(`${kind} ${id} has no node ids in the fixture state`);
    return (nodeIds as string[]).map((n) => `${what} ${n}`);
  };
  switch (kind) {
    case "senlin:Cluster":
      return [`senlin:Cluster ${id}`, ...nodes("senlin:Node")];
    case "cyclecloud:NodePool":
      return nodes("cyclecloud:Node");
    default:
      if (!ALL_KINDS.includes(kind)) throw new Error(`no objects known for kind "${kind}" (id ${id})`);
      return [`${kind} ${id}`];
  }
}

/**
 * What a release after a fixture's changed in stored state and asks of programs, as the upgrade
 * notes (docs/lifecycle.md, "State written by an older release") tell users: the tests' own account,
 * written by hand, not read from the provider's migrations.
 */
export interface ReleaseChange {
  readonly release: string;
  readonly kind: string;
  /** The kind's state schema version from this release on. */
  readonly schemaVersion: number;
  /** The stored field the release retired, and what it became (for the fixtures' values), by engine names. */
  readonly state: { readonly pulumi: StoredChange; readonly tofu: StoredChange };
  /** The edit that writes a program of each engine for this release ([what the fixture's program says, what to write instead]). */
  readonly edits: Readonly<Record<FixtureEngine, readonly (readonly [RegExp, string])[]>>;
  /** Engines whose programs may still use the old name (read as the new one, with a warning). */
  readonly oldNameReads: readonly FixtureEngine[];
  /** The warning a program still using the old name gets. */
  readonly warning: string;
}

interface StoredChange {
  readonly removed: string;
  readonly added: Readonly<Record<string, unknown>>;
}

export const RELEASE_CHANGES: readonly ReleaseChange[] = [
  {
    // A Senlin cluster's `timeout: 1800` (seconds) is `actionTimeout: "30m"`. A JavaScript program of
    // the dynamic provider may keep the old name for now (read as the new one, with a warning); the
    // YAML program and HCL must change, as their schemas no longer have it.
    release: "0.3.0",
    kind: "senlin:Cluster",
    schemaVersion: 1,
    state: { pulumi: { removed: "timeout", added: { actionTimeout: "30m" } }, tofu: { removed: "timeout", added: { action_timeout: "30m" } } },
    edits: {
      dynamic: [[/\btimeout: 1800,/, 'actionTimeout: "30m",']],
      native: [[/\btimeout: 1800\b/, "actionTimeout: 30m"]],
      tofu: [[/\btimeout(\s*)= 1800\b/, 'action_timeout$1= "30m"']],
    },
    oldNameReads: ["dynamic"],
    warning: 'senlin:Cluster: the input "timeout" was replaced in 0.3.0',
  },
];

/** The release changes made after the fixture's release. */
export function changesSince(fixture: Fixture): ReleaseChange[] {
  return RELEASE_CHANGES.filter((c) => compareVersions(c.release, fixture.version) > 0);
}

/** `a` against `b` as release numbers (`0.10.0` after `0.9.0`). */
function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}

/**
 * A fixture's program text as this release asks it to be written (each change's edit; one must
 * match); `required` keeps the fixture's text where the engine still reads the old name.
 */
export function editedProgram(engine: FixtureEngine, fixture: Fixture, text: string, required = false): string {
  let edited = text;
  for (const change of changesSince(fixture)) {
    if (required && change.oldNameReads.includes(engine)) continue;
    for (const [from, to] of change.edits[engine]) {
      if (!from.test(edited)) throw new Error(`the ${fixture.version} fixture's program has no ${from} to change for ${change.release}`);
      edited = edited.replace(from, to);
    }
  }
  return edited;
}

/**
 * A kind's stored fields (a Pulumi resource's inputs or outputs, a tofu instance's attributes) as
 * this release stores them after reading the fixture's: each later release's change applied.
 */
export function storedAfterChanges(fixture: Fixture, kind: string, names: "pulumi" | "tofu", stored: Record<string, unknown> | undefined, versioned: boolean): Record<string, unknown> | undefined {
  if (stored === undefined) return undefined;
  let result = { ...stored };
  for (const change of changesSince(fixture).filter((c) => c.kind === kind)) {
    const { removed, added } = change.state[names];
    if (!(removed in result)) continue;
    const { [removed]: _gone, ...rest } = result;
    // OpenTofu's schema keeps a retired attribute (deprecated, to refuse a configuration setting it), always null.
    const retired = names === "tofu" ? { [removed]: null } : {};
    result = { ...rest, ...retired, ...added, ...(versioned ? { __schemaVersion: change.schemaVersion } : {}) };
  }
  return result;
}

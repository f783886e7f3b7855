import { terraformTypeName } from "../../provider/engines/terraform/kind-modules";
import { CC_PASSWORD } from "../e2e/cyclecloud-support";
import { type EngineStack, openStack } from "./engine";
import { type LocalPlane, startLocalPlane } from "./local-plane";
import { SENLIN_CONFIG, SENLIN_PLANE_FLAGS, SENLIN_USER, senlinRest } from "./senlin-stack";
import { copyProgram, packageWorkspace } from "./workspace";

/** Every resource kind of every platform, as the provider routes them. */
export const KINDS = [
  "cmassh:Cluster",
  "cmassh:NodePool",
  "peloton:ResourcePool",
  "peloton:StatelessJob",
  "vcluster:VCluster",
  "vcluster:Snapshot",
  "senlin:Cluster",
  "senlin:Profile",
  "senlin:Policy",
  "cyclecloud:NodePool",
] as const;

/** One resource kind, e.g. `cmassh:NodePool`. */
export type Kind = (typeof KINDS)[number];

/** Plane flags every platform needs: the Keystone user Senlin calls authenticate as, CycleCloud's password. */
export const ALL_KINDS_PLANE_FLAGS = [...SENLIN_PLANE_FLAGS, "--cyclecloud-password", CC_PASSWORD];

/** A stack of the `all-kinds` program (every kind of every platform) on a local control plane. */
export interface AllKindsStack {
  plane: LocalPlane;
  stack: EngineStack;
  programDir: string;
  /** Sets `test:<key>` to each value (numbers as given); `undefined` removes the key. */
  configure(values: Record<string, number | string | undefined>): Promise<void>;
}

/** Options of {@link openAllKindsStack}. */
export interface AllKindsOptions {
  /** A plane to share with other stacks; when omitted, a new plane is started. */
  plane?: LocalPlane;
  /** Time scale of a new plane. @default 0.3 */
  timeScale?: number;
  /** Extra flags of a new plane. @default [] */
  planeFlags?: string[];
  /** Extra stack configuration (plain strings). @default {} */
  config?: Record<string, string>;
  /** The program of test/e2e/programs: `all-kinds-native` is the same stack through the native plugin. @default "all-kinds" */
  program?: "all-kinds" | "all-kinds-native";
  /** Extra environment of the engine's runs. @default {} */
  env?: Record<string, string>;
}

/**
 * The Senlin profile {@link startAllKindsPlane} seeds for programs that name a profile instead of
 * declaring one (test/e2e/programs/native-kinds): no stack owns it, so no inventory counts it.
 */
export const SEEDED_PROFILE = "web-profile";

/** Starts a plane that every platform of the `all-kinds` program can use, with {@link SEEDED_PROFILE}. */
export async function startAllKindsPlane(workspace: string, timeScale = 0.3, flags: string[] = []): Promise<LocalPlane> {
  const plane = await startLocalPlane({ workspace, timeScale, flags: [...ALL_KINDS_PLANE_FLAGS, ...flags] });
  try {
    await (await senlinRest(plane)).createProfile(SEEDED_PROFILE);
  } catch (err) {
    await plane.stop();
    throw err;
  }
  return plane;
}

/**
 * Installs the packed package in the `all-kinds` workspace and opens a stack of the `all-kinds`
 * program (or `opts.program`) against `opts.plane` or a new plane, with the credentials of every
 * platform in its config.
 */
export async function openAllKindsStack(opts: AllKindsOptions = {}): Promise<AllKindsStack> {
  const workspace = packageWorkspace();
  const plane = opts.plane ?? (await startAllKindsPlane(workspace, opts.timeScale, opts.planeFlags));
  const programDir = copyProgram(workspace, opts.program ?? "all-kinds");
  const stack = await openStack({
    programDir,
    env: opts.env,
    config: {
      "clusterform:endpoint": { value: plane.url },
      ...Object.fromEntries(Object.entries(SENLIN_CONFIG).map(([k, v]) => [k, { value: v }])),
      "clusterform:senlinPassword": { value: SENLIN_USER.password, secret: true },
      "clusterform:cyclecloudUsername": { value: "admin" },
      "clusterform:cyclecloudPassword": { value: CC_PASSWORD, secret: true },
      ...Object.fromEntries(Object.entries(opts.config ?? {}).map(([k, v]) => [k, { value: v }])),
    },
  });
  return {
    plane,
    stack,
    programDir,
    async configure(values) {
      await stack.configure(Object.fromEntries(Object.entries(values).map(([k, v]) => [`test:${k}`, v === undefined ? undefined : { value: String(v) }])));
    },
  };
}

/** The objects of each kind, each as a stable key (see {@link planeInventory}). */
export type Inventory = Record<Kind, string[]>;

const emptyInventory = (): Inventory => Object.fromEntries(KINDS.map((k) => [k, [] as string[]])) as Inventory;

interface CmasshView {
  name: string;
  pools: { name: string }[];
}
interface SnapshotView {
  id: string;
  status: string;
}
interface SenlinView {
  id: string;
  status: string;
}
interface SenlinCatalogView {
  id: string;
  name: string;
}
interface CcNodeView {
  cluster: string;
  name: string;
  state: string;
}

/** CycleCloud node states of nodes that are gone or on their way out: they belong to no pool. */
const CC_GONE = new Set(["Terminated", "Terminating", "Deallocated", "Deallocating"]);

/**
 * What the local control plane holds, read from its admin views: cma-ssh clusters by name and pools
 * as `cluster/pool`, Peloton pools and jobs by id, vclusters as `namespace/name`, snapshots by id,
 * Senlin clusters, profiles and policies by id (not {@link SEEDED_PROFILE}), CycleCloud nodes as
 * `cluster/node`. Objects being deleted count until the platform has removed them (a Senlin cluster
 * in DELETING, a node Terminating does not).
 */
export async function planeInventory(plane: LocalPlane): Promise<Inventory> {
  const inv = emptyInventory();
  const [cm, pools, jobs, vcs, snaps, senlin, profiles, policies, nodes] = await Promise.all([
    plane.admin<{ clusters: CmasshView[] }>("/_local/cmassh/clusters"),
    plane.admin<{ respools: { id: string }[] }>("/_local/peloton/respools"),
    plane.admin<{ jobs: { id: string }[] }>("/_local/peloton/jobs"),
    plane.admin<{ vclusters: { namespace: string; name: string }[] }>("/_local/vcluster/vclusters"),
    plane.admin<{ snapshots: SnapshotView[] }>("/_local/vcluster/snapshots"),
    plane.admin<{ clusters: SenlinView[] }>("/_local/senlin/clusters"),
    plane.admin<{ profiles: SenlinCatalogView[] }>("/_local/senlin/profiles"),
    plane.admin<{ policies: SenlinCatalogView[] }>("/_local/senlin/policies"),
    plane.admin<{ nodes: CcNodeView[] }>("/_local/cyclecloud/nodes"),
  ]);
  for (const c of cm.clusters) {
    inv["cmassh:Cluster"].push(c.name);
    for (const p of c.pools) inv["cmassh:NodePool"].push(`${c.name}/${p.name}`);
  }
  inv["peloton:ResourcePool"] = pools.respools.map((p) => p.id).filter((id) => id !== "root");
  inv["peloton:StatelessJob"] = jobs.jobs.map((j) => j.id);
  inv["vcluster:VCluster"] = vcs.vclusters.map((v) => `${v.namespace}/${v.name}`);
  inv["vcluster:Snapshot"] = snaps.snapshots.map((s) => s.id);
  inv["senlin:Cluster"] = senlin.clusters.filter((c) => c.status !== "DELETED").map((c) => c.id);
  inv["senlin:Profile"] = profiles.profiles.filter((p) => p.name !== SEEDED_PROFILE).map((p) => p.id);
  inv["senlin:Policy"] = policies.policies.map((p) => p.id);
  inv["cyclecloud:NodePool"] = nodes.nodes.filter((n) => !CC_GONE.has(n.state)).map((n) => `${n.cluster}/${n.name}`);
  for (const k of KINDS) inv[k].sort();
  return inv;
}

/** A resource of a stack's state: Pulumi's exported state, or OpenTofu's read into the provider's field names. */
export interface StateResource {
  /** The type token (`pulumi-nodejs:dynamic/cmassh:NodePool`, `clusterform:cmassh:NodePool`) or the Terraform type (`clusterform_cmassh_node_pool`). */
  type: string;
  id?: string;
  outputs?: Record<string, unknown>;
  delete?: boolean;
  /** Deleted by a delete-before-replace whose replacement is not created yet: it no longer exists. */
  pendingReplacement?: boolean;
}

/** Each kind by its Terraform type name (`clusterform_cmassh_node_pool`). */
const KIND_OF_TERRAFORM_TYPE: ReadonlyMap<string, Kind> = new Map(KINDS.map((k) => [terraformTypeName(k), k]));

/**
 * The kind of a state resource's type token (`pulumi-nodejs:dynamic/cmassh:NodePool` and
 * `clusterform:cmassh:NodePool` -> `cmassh:NodePool`) or Terraform type (`clusterform_cmassh_node_pool`).
 */
export function kindOf(type: string): Kind | undefined {
  const token = type.replace(/^(pulumi-nodejs:dynamic\/|clusterform:)/, "");
  return (KINDS as readonly string[]).includes(token) ? (token as Kind) : KIND_OF_TERRAFORM_TYPE.get(type);
}

/** Where a comparison reads a stack's state: a Pulumi stack, or anything that lists its resources (an OpenTofu configuration). */
export type StateSource = EngineStack | { resources(): Promise<StateResource[]> };

/** The resources of a stack's state. */
export async function stateResources(source: StateSource): Promise<StateResource[]> {
  if ("resources" in source) return source.resources();
  return ((await source.exportState()).deployment.resources ?? []) as StateResource[];
}

/**
 * What the stack's state says exists, keyed as {@link planeInventory} keys the plane's objects.
 * Resources pending deletion (`delete: true`, left by an interrupted replacement) count: the
 * engine will delete them, so they must still exist. Resources a delete-before-replace already
 * deleted (`pendingReplacement`, kept until their replacement is created) do not.
 */
export function stateInventory(resources: readonly StateResource[]): Inventory {
  const inv = emptyInventory();
  for (const r of resources) {
    const kind = kindOf(r.type);
    if (!kind || !r.id || r.pendingReplacement) continue;
    const o = r.outputs ?? {};
    switch (kind) {
      case "cmassh:NodePool":
        inv[kind].push(`${o.clusterName}/${o.name}`);
        break;
      case "vcluster:VCluster":
        inv[kind].push(`${o.namespace}/${o.name}`);
        break;
      case "cyclecloud:NodePool":
        for (const node of (o.nodeNames as string[] | undefined) ?? []) inv[kind].push(`${o.clusterName}/${node}`);
        break;
      default:
        inv[kind].push(r.id);
    }
  }
  for (const k of KINDS) inv[k].sort();
  return inv;
}

/** How the plane and the state disagree for one kind. */
export interface KindComparison {
  /** Objects on the plane the state does not name. */
  orphans: string[];
  /** Objects the state names that the plane does not hold. */
  missing: string[];
  /** Keys the state names more than once. */
  duplicates: string[];
  plane: string[];
  state: string[];
}

/** Compares the plane's inventory with the stack's state, kind by kind. */
export async function compareWithState(plane: LocalPlane, stack: StateSource): Promise<Record<Kind, KindComparison>> {
  const [live, resources] = await Promise.all([planeInventory(plane), stateResources(stack)]);
  const recorded = stateInventory(resources);
  const out = {} as Record<Kind, KindComparison>;
  for (const k of KINDS) {
    const p = new Set(live[k]);
    const s = new Set(recorded[k]);
    out[k] = {
      orphans: live[k].filter((x) => !s.has(x)),
      missing: recorded[k].filter((x) => !p.has(x)),
      duplicates: recorded[k].filter((x, i, all) => all.indexOf(x) !== i),
      plane: live[k],
      state: recorded[k],
    };
  }
  return out;
}

/** How several stacks sharing one plane agree with it, for one kind. */
export interface SharedComparison {
  /** Objects on the plane no stack's state names. */
  orphans: string[];
  /** Per stack: objects its state names that the plane does not hold. */
  missing: string[][];
  /** Per stack: keys its state names more than once. */
  duplicates: string[][];
  /** Keys the states of two or more stacks name: each object must belong to one stack. */
  shared: string[];
  /** Per stack: what its state names. */
  states: string[][];
  plane: string[];
}

/** Compares the plane's inventory with the exported states of every stack on it, kind by kind. */
export async function compareStacksWithPlane(plane: LocalPlane, stacks: readonly EngineStack[]): Promise<Record<Kind, SharedComparison>> {
  const [live, ...deployments] = await Promise.all([planeInventory(plane), ...stacks.map((s) => s.exportState())]);
  const states = deployments.map((d) => stateInventory((d.deployment.resources ?? []) as StateResource[]));
  const out = {} as Record<Kind, SharedComparison>;
  for (const k of KINDS) {
    const owners = new Map<string, number>();
    for (const s of states) for (const key of new Set(s[k])) owners.set(key, (owners.get(key) ?? 0) + 1);
    const onPlane = new Set(live[k]);
    out[k] = {
      orphans: live[k].filter((x) => !owners.has(x)),
      missing: states.map((s) => s[k].filter((x) => !onPlane.has(x))),
      duplicates: states.map((s) => s[k].filter((x, i, all) => all.indexOf(x) !== i)),
      shared: [...owners].filter(([, n]) => n > 1).map(([key]) => key),
      states: states.map((s) => s[k]),
      plane: live[k],
    };
  }
  return out;
}

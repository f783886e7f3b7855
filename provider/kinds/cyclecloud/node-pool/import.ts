import type { ClusterStatus, NodeRecord } from "../../../clients/cyclecloud/types";
import { deepEqual } from "../../../core/planner";
import type { ImportDefinition, LiveObject, OperationContext } from "../../../core/contract";
import { readDeadline, seedValues } from "../../fields";
import { cycleCloudClient, isClusterNotFound } from "../common";
import { bucketOf, type PoolState } from "./converge";
import { outputsOf } from "./operations";
import { requestIdBase, roleOf } from "./pool";
import { observedPower, parkedOf, recordedPower } from "./power";
import { NODE_POOL_TIMEOUTS, RESERVED_ATTRIBUTES, nodePoolKind } from "./schema";

type Props = Record<string, unknown>;

const NAME = "[A-Za-z0-9][A-Za-z0-9_.-]{0,63}";
/** A request-id base Clusterform made: the owner marker is in it, so candidate inputs can be checked against its hash. */
const OWN_BASE = /^clusterform-([0-9a-f]{16})-[0-9a-f]{8}$/;
/** The inputs the nodes cannot report unless the request base confirms them. */
const HIDDEN_INPUTS = nodePoolKind.importId?.unreported ?? [];

/** The request sequence number of a node of the pool: the part of its request id after the base. */
function seqOf(node: NodeRecord, base: string): number | undefined {
  const id = node.RequestId ?? "";
  if (id === base) return 0;
  const m = id.startsWith(`${base}-`) ? /^\d+$/.exec(id.slice(base.length + 1)) : null;
  return m ? Number(m[0]) : undefined;
}

/**
 * The attributes a node record carries beyond CycleCloud's own and its nodearray's defaults (the
 * nodearray's `nodearray` attributes in ClusterStatus): what a creation request set.
 */
function customAttributes(node: NodeRecord, defaults: Props): Props | undefined {
  const own = Object.entries(node).filter(([k, v]) => !(RESERVED_ATTRIBUTES as readonly string[]).includes(k) && !deepEqual(defaults[k], v));
  return own.length > 0 ? Object.fromEntries(own) : undefined;
}

/** Each distinct value once, `undefined` (the input left out) first. */
function choices<T>(values: readonly (T | undefined)[]): (T | undefined)[] {
  return [undefined, ...new Set(values.filter((v): v is T => v !== undefined))];
}

/**
 * The name formats and offsets the pool's node names suggest: a name ending in digits, such as
 * `compute-21`, is `compute-%d` at index 21 (a format with `%d` elsewhere is not guessed).
 */
function nameCandidates(nodes: readonly NodeRecord[]): { formats: (string | undefined)[]; offsets: (number | undefined)[] } {
  const parsed = nodes.map((n) => /^(.*\D)(\d+)$/.exec(n.Name ?? "")).filter((m): m is RegExpExecArray => m !== null);
  return { formats: choices(parsed.map((m) => `${m[1]}%d`)), offsets: choices(parsed.map((m) => Number(m[2]))) };
}

/**
 * The shaping inputs (machine type, placement group, attributes, name format and offset) the pool
 * was created with: of the candidates the nodes show, the one whose hash makes the id's base.
 * Without a match (a base Clusterform did not make, or a name format the node names do not reveal)
 * the observed machine type and placement group are reported and the rest is left to the program.
 */
function shapingInputs(base: string, inputs: Props, nodes: readonly NodeRecord[], defaults: Props): { inputs: Props; unreported?: readonly string[] } {
  const owner = OWN_BASE.exec(base)?.[1];
  const node = nodes[0];
  const observed = { machineType: node.MachineType, placementGroupId: node.PlacementGroupId as string | undefined, nodeAttributes: customAttributes(node, defaults) };
  if (owner) {
    const names = nameCandidates(nodes);
    for (const machineType of choices([observed.machineType])) {
      for (const placementGroupId of choices([observed.placementGroupId])) {
        for (const nodeAttributes of [undefined, observed.nodeAttributes]) {
          for (const nameFormat of names.formats) {
            for (const nameOffset of names.offsets) {
              const candidate = { ...inputs, machineType, placementGroupId, nodeAttributes, nameFormat, nameOffset };
              if (requestIdBase(owner, seedValues(nodePoolKind, candidate)) === base) return { inputs: candidate, unreported: [] };
            }
          }
        }
      }
    }
  }
  return { inputs: { ...inputs, machineType: observed.machineType, placementGroupId: observed.placementGroupId }, unreported: HIDDEN_INPUTS };
}

/**
 * Import of `cyclecloud:NodePool` by `cluster/nodearray/<request-id base>`, the id create records
 * (the base is the start of the `RequestId` attribute of the pool's nodes: `clusterform-<owner>-<hash>`,
 * or any prefix the nodes were requested under). The pool is its nodes of that request base that
 * are not on their way out; `count` is how many there are (a pool sized by `coreCount` imports with
 * `count`). Machine type, placement group, node attributes, name format and offset are recovered
 * exactly when the base's hash confirms them; otherwise the last three must be written in the program.
 */
export const nodePoolImport: ImportDefinition = {
  platform: "cyclecloud",
  idPattern: new RegExp(`^${NAME}/${NAME}/[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`),
  async read(ctx, id) {
    const [clusterName, nodearray, base] = id.split("/");
    const client = await cycleCloudClient(ctx.config);
    const deadline = readDeadline({}, NODE_POOL_TIMEOUTS);
    let records: NodeRecord[];
    try {
      records = (await client.listNodes(clusterName, {}, { deadline })).nodes;
    } catch (err) {
      if (isClusterNotFound(err)) return undefined;
      throw err;
    }
    if (poolNodes(records, nodearray, base).length === 0) return undefined;
    const status = await client.getClusterStatus(clusterName, false, { deadline });
    return poolOf(clusterName, nodearray, base, records, status);
  },
};

/**
 * The pool's nodes (of the nodearray and request base, not on their way out), in request order. A
 * Terminated node is the pool's only when Fixed (a pool shut down, `powerState: "off"`); any other
 * is about to lose its record.
 */
function poolNodes(records: readonly NodeRecord[], nodearray: string, base: string): { node: NodeRecord; seq: number }[] {
  const kept = (node: NodeRecord) => roleOf(node) !== "leaving" && (node.State !== "Terminated" || parkedOf(node) === "off");
  return records
    .map((node) => ({ node, seq: seqOf(node, base) }))
    .filter((n): n is { node: NodeRecord; seq: number } => n.seq !== undefined && n.node.Template === nodearray && kept(n.node))
    .sort((a, b) => a.seq - b.seq);
}

/** The pool of a request base as the cluster's nodes and status show it; undefined when it has no node. */
function poolOf(clusterName: string, nodearray: string, base: string, records: readonly NodeRecord[], status: ClusterStatus): LiveObject | undefined {
  const nodes = poolNodes(records, nodearray, base);
  if (nodes.length === 0) return undefined;
  const array = status.nodearrays.find((n) => n.name === nodearray);
  const buckets = array?.buckets ?? [];
  const defaults = typeof array?.nodearray === "object" && array.nodearray !== null ? (array.nodearray as Props) : {};
  const shaped = shapingInputs(base, { clusterName, nodearray }, nodes.map((n) => n.node), defaults);
  const state: PoolState = {
    nodeIds: nodes.map((n) => n.node.NodeId),
    requestSeq: nodes[nodes.length - 1].seq,
    lastOperationId: "",
    coresPerNode: bucketOf(buckets, nodes[0].node.MachineType)?.virtualMachine.vcpuCount ?? 1,
  };
  const power = observedPower(nodes.map((n) => ({ parked: parkedOf(n.node), failed: n.node.State === "Failed" })), "running");
  const inputs = Object.fromEntries(Object.entries({ ...shaped.inputs, count: nodes.length, powerState: recordedPower(power, undefined) }).filter(([, v]) => v !== undefined));
  return { inputs, outputs: outputsOf(state, [...records]), unreported: shaped.unreported };
}

/** The request-id base of a node Clusterform requested (`clusterform-<owner>-<hash>`, then `-<seq>` after the first). */
const OWN_REQUEST = /^(clusterform-[0-9a-f]{16}-[0-9a-f]{8})(?:-\d+)?$/;

/**
 * The pools Clusterform made in a cluster (its nodes grouped by nodearray and request base, from
 * one node list and one cluster status), optionally of one nodearray, for `getNodePools`. A cluster
 * that does not exist has none.
 */
export async function listNodePools(ctx: OperationContext, args: Props): Promise<Props[]> {
  const clusterName = String(args.clusterName);
  const client = await cycleCloudClient(ctx.config);
  const deadline = readDeadline({}, NODE_POOL_TIMEOUTS);
  let records: NodeRecord[];
  try {
    records = (await client.listNodes(clusterName, {}, { deadline })).nodes;
  } catch (err) {
    if (isClusterNotFound(err)) return [];
    throw err;
  }
  const groups = new Set<string>();
  for (const node of records) {
    const base = OWN_REQUEST.exec(node.RequestId ?? "")?.[1];
    if (base && node.Template && (args.nodearray === undefined || node.Template === args.nodearray)) groups.add(`${node.Template}/${base}`);
  }
  if (groups.size === 0) return [];
  const status = await client.getClusterStatus(clusterName, false, { deadline });
  return [...groups].sort().flatMap((group) => {
    const [nodearray, base] = group.split("/");
    const pool = poolOf(clusterName, nodearray, base, records, status);
    return pool ? [{ id: `${clusterName}/${group}`, ...pool.inputs, ...pool.outputs }] : [];
  });
}

import { z } from "zod";
import { MACHINE_TYPE_NAMES, MACHINE_TYPES, machineTypeOf } from "./machine-types";

/** One bucket of a nodearray: a VM size and the quota (in nodes) Azure grants it. */
export interface BucketDefinition {
  machineType: string;
  /** How many nodes of this size may hold a VM at once. */
  quota: number;
}

/** A nodearray as the emulator stores it, every default applied. */
export interface NodearrayDefinition {
  name: string;
  buckets: BucketDefinition[];
  /** Nodes the nodearray may hold at once. */
  maxCount: number;
  /** Cores the nodearray may hold at once. */
  maxCoreCount: number;
  region: string;
  /** Spot VMs (`Interruptible`), reported with priority `Spot` in usage. */
  spot: boolean;
  /** What `shutdown` does to nodes that do not set their own `ShutdownPolicy`. */
  shutdownPolicy: "Terminate" | "Deallocate";
  /** Whether terminated nodes keep their record (`Fixed`) unless removed. */
  fixed: boolean;
  maxPlacementGroupSize: number;
  /** Extra node-record attributes every node of the array starts with. */
  attributes: Record<string, unknown>;
}

/** A cluster as the emulator stores it, every default applied. */
export interface ClusterDefinition {
  name: string;
  /** Nodes the whole cluster may hold at once. */
  maxCount: number;
  /** Cores the whole cluster may hold at once. */
  maxCoreCount: number;
  nodearrays: NodearrayDefinition[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const count = z.number().int().nonnegative();
const machineType = z.string().refine((v) => v in MACHINE_TYPES, {
  error: (issue) => `got "${String(issue.input)}", allowed: ${MACHINE_TYPE_NAMES.join(", ")}`,
});
const bucket = z.strictObject({ machineType, quota: count });

const nodearrayInput = z
  .strictObject({
    name: z.string().regex(NAME, "expected letters, digits, '_', '.' or '-', starting with a letter or digit"),
    machineType: machineType.optional(),
    quota: count.optional(),
    buckets: z.array(bucket).min(1).optional(),
    maxCount: count.optional(),
    maxCoreCount: count.optional(),
    region: z.string().min(1).default("westeurope"),
    spot: z.boolean().default(false),
    shutdownPolicy: z.enum(["Terminate", "Deallocate"]).default("Terminate"),
    fixed: z.boolean().default(false),
    maxPlacementGroupSize: z.number().int().positive().default(100),
    attributes: z.record(z.string(), z.unknown()).default({}),
  })
  .refine((n) => (n.buckets === undefined) === (n.machineType !== undefined && n.quota !== undefined), {
    error: "give either `machineType` and `quota`, or `buckets`, not both",
  });

const clusterInput = z
  .strictObject({
    name: z.string().regex(NAME, "expected letters, digits, '_', '.' or '-', starting with a letter or digit"),
    maxCount: count.optional(),
    maxCoreCount: count.optional(),
    nodearrays: z.array(nodearrayInput).min(1),
  })
  .refine((c) => new Set(c.nodearrays.map((n) => n.name)).size === c.nodearrays.length, {
    error: "nodearray names must be unique",
    path: ["nodearrays"],
  });

function normalizeNodearray(input: z.infer<typeof nodearrayInput>): NodearrayDefinition {
  const { machineType: type, quota, buckets: given, maxCount, maxCoreCount, ...rest } = input;
  const buckets = given ?? [{ machineType: type!, quota: quota! }];
  return {
    ...rest,
    buckets,
    maxCount: maxCount ?? buckets.reduce((sum, b) => sum + b.quota, 0),
    maxCoreCount: maxCoreCount ?? buckets.reduce((sum, b) => sum + b.quota * machineTypeOf(b.machineType).vcpuCount, 0),
  };
}

function describeIssue(issue: z.core.$ZodIssue, prefix: string): string {
  const field = [prefix, ...issue.path.map(String)].filter((p) => p !== "").join(".");
  return `${field === "" ? "body" : `field "${field}"`}: ${issue.message}`;
}

/** Thrown for a cluster definition that cannot be used; the message names the field and what is allowed. */
export class DefinitionError extends Error {}

/**
 * Validates one cluster definition (the admin API body) and applies defaults: `maxCount` and
 * `maxCoreCount` default to the sum over the buckets' quotas.
 * @param prefix - field path prepended in error messages. @default ""
 */
export function parseClusterDefinition(body: unknown, prefix = ""): ClusterDefinition {
  const result = clusterInput.safeParse(body);
  if (!result.success) {
    throw new DefinitionError(`invalid cluster definition: ${result.error.issues.map((i) => describeIssue(i, prefix)).join("; ")}`);
  }
  const nodearrays = result.data.nodearrays.map(normalizeNodearray);
  return {
    name: result.data.name,
    maxCount: result.data.maxCount ?? nodearrays.reduce((sum, n) => sum + n.maxCount, 0),
    maxCoreCount: result.data.maxCoreCount ?? nodearrays.reduce((sum, n) => sum + n.maxCoreCount, 0),
    nodearrays,
  };
}

/** Validates the contents of a definitions file: `{ "clusters": [definition, ...] }`. */
export function parseDefinitionsFile(json: unknown): ClusterDefinition[] {
  const clusters = (json as { clusters?: unknown } | null)?.clusters;
  if (!Array.isArray(clusters)) throw new DefinitionError('invalid definitions file: expected {"clusters": [ ... ]}');
  const parsed = clusters.map((c, i) => parseClusterDefinition(c, `clusters.${i}`));
  const names = parsed.map((c) => c.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate !== undefined) throw new DefinitionError(`invalid definitions file: cluster "${duplicate}" is defined twice`);
  return parsed;
}

/** The cluster a fresh emulator starts with when no definitions are given. */
export const DEMO_CLUSTER: ClusterDefinition = parseClusterDefinition({
  name: "demo",
  nodearrays: [
    { name: "execute", machineType: "Standard_F2s_v2", quota: 20 },
    { name: "gpu", machineType: "Standard_NC6", quota: 2 },
  ],
});

import { readlinkSync } from "node:fs";
import * as path from "node:path";
import type { PolicyResource as EngineResource, ResourceValidationArgs, ResourceValidationPolicy, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import { UNKNOWN } from "../../core/unknown";
import { loadKinds } from "../plan/planners";
import { definitionProps, type PolicyChange, type PolicyResource, policyChange } from "./change";
import { loadOldState, type OldResource } from "./old-state";
import { CLUSTER_KINDS, checkBatchSize, checkReplacement, checkScaleDown, checkVersion, DEFAULTS, type Verdict } from "./rules";

type Props = Record<string, unknown>;

/**
 * The policy SDK's sentinels for values unknown at preview (one per type), read from the SDK itself
 * (its proxy module exports them); every one is read as the provider's {@link UNKNOWN}.
 */
function unknownSentinels(): Set<string> {
  const proxy = require("@pulumi/policy/proxy") as Record<string, unknown>;
  return new Set(Object.entries(proxy).filter(([key, value]) => /^unknown[A-Z]\w*Value$/.test(key) && typeof value === "string").map(([, value]) => value as string));
}

let sentinels: Set<string> | undefined;

/**
 * The properties without the policy SDK's proxy (which throws on any unknown value: the planners
 * need to see unknowns and let them through), unknowns as the provider's sentinel.
 */
function plain(value: unknown): unknown {
  const target = value && typeof value === "object" ? ((value as Props).__getSpecialProxyTarget ?? value) : value;
  if (typeof target === "string") {
    sentinels ??= unknownSentinels();
    return sentinels.has(target) ? UNKNOWN : target;
  }
  if (Array.isArray(target)) return target.map(plain);
  if (target && typeof target === "object") return Object.fromEntries(Object.entries(target).map(([k, v]) => [k, plain(v)]));
  return target;
}

/** The CLI that started this pack: its parent when that is `pulumi`, else the one on PATH. */
function pulumiCli(): string {
  if (process.env.CLUSTERFORM_POLICY_PULUMI) return process.env.CLUSTERFORM_POLICY_PULUMI;
  try {
    const parent = readlinkSync(`/proc/${process.ppid}/exe`);
    if (path.basename(parent) === "pulumi") return parent;
  } catch {
    // Not Linux, or not allowed: PATH decides.
  }
  return "pulumi";
}

const states = new Map<string, Promise<Map<string, OldResource>>>();

/** The stack's last state, read once per stack for this process (the first resource's analysis asks before any step runs). */
function oldStateOf(urn: string): Promise<Map<string, OldResource>> {
  const stack = urn.split("::").slice(0, 2).join("::");
  let state = states.get(stack);
  if (!state) {
    state = loadOldState(urn, {
      stateFile: process.env.CLUSTERFORM_POLICY_STATE_FILE,
      pulumi: pulumiCli(),
      programDir: process.env.CLUSTERFORM_POLICY_PROGRAM_DIR ?? process.cwd(),
    });
    states.set(stack, state);
  }
  return state;
}

/** One resource under analysis, with its old state and the planned change (undefined: not Clusterform's). */
async function analyzed(args: { urn: string; name: string; type: string; props: Props; opts: { deleteBeforeReplace?: boolean } }): Promise<{ resource: PolicyResource; change: PolicyChange } | undefined> {
  await loadKinds();
  const news = definitionProps(args.type, plain(args.props) as Props);
  const resource: PolicyResource = { urn: args.urn, name: args.name, type: args.type, news, deleteBeforeReplace: args.opts.deleteBeforeReplace };
  if (!policyChange(resource)) return undefined;
  const old = (await oldStateOf(args.urn)).get(args.urn);
  const full = { ...resource, olds: old?.props, id: old?.id };
  const change = policyChange(full);
  return change ? { resource: full, change } : undefined;
}

type Rule<C> = (resource: PolicyResource, change: PolicyChange, config: C) => Verdict;

/** A resource policy running `rule` on every Clusterform resource the program registers. */
function resourcePolicy<C extends object>(name: string, description: string, rule: Rule<C>, configSchema: ResourceValidationPolicy["configSchema"]): ResourceValidationPolicy {
  return {
    name,
    description,
    enforcementLevel: "mandatory",
    configSchema,
    validateResource: async (args: ResourceValidationArgs, report) => {
      const found = await analyzed(args);
      if (!found) return;
      for (const reason of rule(found.resource, found.change, args.getConfig<C>())) report(reason);
    },
  };
}

const stringList = { type: "array", items: { type: "string" } } as const;

/** Deletions: resources of the last state that the program no longer registers. */
const deletionPolicy: StackValidationPolicy = {
  name: "clusterform-cluster-deletion",
  description: "No deletion of a cluster unless its name is in the config value `allow`.",
  enforcementLevel: "mandatory",
  configSchema: { properties: { kinds: { ...stringList, default: [...CLUSTER_KINDS] }, allow: { ...stringList, default: [] } } },
  validateStack: async (args: StackValidationArgs, report) => {
    const first = args.resources[0] as EngineResource | undefined;
    if (!first) return;
    await loadKinds();
    const registered = new Set(args.resources.map((r) => r.urn));
    const config = args.getConfig<{ kinds?: string[]; allow?: string[] }>();
    for (const old of (await oldStateOf(first.urn)).values()) {
      if (registered.has(old.urn)) continue;
      const name = old.urn.split("::").slice(3).join("::");
      const resource: PolicyResource = { urn: old.urn, name, type: old.type, olds: old.props, id: old.id };
      const change = policyChange(resource);
      if (change) for (const reason of checkReplacement(resource, change, config, deletionPolicy.name)) report(reason);
    }
  },
};

/** The pack's policies, each configurable by `--policy-pack-config` (see docs/policy-pack.md). */
export const POLICIES = [
  resourcePolicy("clusterform-cluster-replacement", "No replacement of a cluster unless its name is in the config value `allow`.", checkReplacement, {
    properties: { kinds: { ...stringList, default: [...CLUSTER_KINDS] }, allow: { ...stringList, default: [] } },
  }),
  deletionPolicy,
  resourcePolicy("clusterform-max-scale-down", "One change removes at most `maxRemoved` instances or nodes of a pool, cluster or job.", checkScaleDown, {
    properties: { maxRemoved: { type: "integer", minimum: 0, default: DEFAULTS.maxRemoved } },
  }),
  resourcePolicy("clusterform-rolling-update-batch-size", "A Peloton job's rolling update takes at least `minBatches` batches (its batch size is below its size).", checkBatchSize, {
    properties: { minBatches: { type: "integer", minimum: 1, default: DEFAULTS.minBatches } },
  }),
  resourcePolicy("clusterform-version-offered", "A version a create or an upgrade sets is one the config value `offered` lists for the kind.", checkVersion, {
    properties: { offered: { type: "object", additionalProperties: stringList, default: {} } },
  }),
];

/** Creates the pack: requires `@pulumi/policy` (installed beside the package) only now, inside the analyzer. */
export function servePack(): void {
  const { PolicyPack } = require("@pulumi/policy") as typeof import("@pulumi/policy");
  new PolicyPack("clusterform", { policies: POLICIES, enforcementLevel: "mandatory", description: "Clusterform: guards on what a change does to clusters, pools and jobs" });
}

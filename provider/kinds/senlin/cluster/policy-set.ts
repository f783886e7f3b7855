import type { ClusterPolicy } from "../../../clients/senlin/types";
import type { PolicyBinding } from "./schema";

/** The actions that turn one policy set into another. */
export interface PolicyChanges {
  detach: string[];
  attach: PolicyBinding[];
  update: PolicyBinding[];
}

/**
 * Plans the policy actions from the bindings the cluster has to the ones wanted: detach what is no
 * longer wanted, attach what is new, update `enabled` where only that changed, nothing else.
 * Policies are compared by the reference the user gave (a name, short id or UUID).
 */
export function planPolicies(current: readonly PolicyBinding[], wanted: readonly PolicyBinding[]): PolicyChanges {
  const have = new Map(current.map((b) => [b.policy, b.enabled]));
  const want = new Set(wanted.map((b) => b.policy));
  return {
    detach: current.filter((b) => !want.has(b.policy)).map((b) => b.policy),
    attach: wanted.filter((b) => !have.has(b.policy)),
    update: wanted.filter((b) => have.has(b.policy) && have.get(b.policy) !== b.enabled),
  };
}

/** True when a binding is the policy a user reference names: its name, its UUID or a prefix of it (a short id). */
export function bindingMatches(binding: ClusterPolicy, reference: string): boolean {
  return binding.policyName === reference || binding.policyId === reference || (reference.length >= 4 && binding.policyId.startsWith(reference));
}

/**
 * The live bindings in terms of the user's references: each wanted policy the cluster has, with
 * its live `enabled`. Bindings the user never named are left alone: a cluster this resource adopts
 * keeps policies someone else attached only if they are in the wanted set.
 */
export function liveBindings(live: readonly ClusterPolicy[], wanted: readonly PolicyBinding[]): PolicyBinding[] {
  return wanted.flatMap((w) => {
    const found = live.find((b) => bindingMatches(b, w.policy));
    return found ? [{ policy: w.policy, enabled: found.enabled }] : [];
  });
}

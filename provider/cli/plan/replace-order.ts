import { importIdentityOf } from "../../core/import";
import { replacementOrder as coreOrder, type ReplaceOrder } from "../../core/replacement";
import { isNativeType } from "./engine-props";
import { plannedKindOf } from "./planners";

export type { ReplaceOrder };

type Props = Record<string, unknown>;

/** A replacement as the engine will see it; properties in the definitions' keys. */
export interface ReplacementQuestion {
  /** The engine's type (`pulumi-nodejs:dynamic/cmassh:NodePool`, `clusterform:cmassh:NodePool`). */
  type: string;
  /** The resource's URN: the native plugin derives the ownership marker and resource name from it. */
  urn?: string;
  /** The old state (inputs and outputs). */
  olds?: Props;
  /** The new inputs, as the provider's check returned them. */
  news?: Props;
  /** The resource option `deleteBeforeReplace`, when the program set it and it is known (a policy sees it). */
  option?: boolean;
}

/**
 * The order of a replacement, decided as the engine and the provider decide it; the one answer the
 * operations plan (`clusterform plan`, the preview's rows) and the policy pack give.
 *
 * 1. The resource option `deleteBeforeReplace`, when set, overrides the provider (Pulumi's step
 *    generator).
 * 2. Else the provider's Diff answer. The dynamic provider answers what its hidden input
 *    `deleteBeforeReplace` says (the SDK sends it: true unless the kind creates first or the
 *    program opts out); a diff answer passed as that input (the preview's rows) is read the same way.
 * 3. The native plugin sends no such input and asks for create-first, which the kit refuses when
 *    the new object would have the old one's identity (a user-chosen name, a snapshot of the same
 *    vcluster): it then answers delete-first (docs/native-plugin.md "Replacement order"). Here the
 *    same identities are compared, from the same inputs the plugin's Diff gets: the definitions'
 *    keys with the ownership marker and resource name its URN gives. As in the plugin, an identity
 *    not known at preview is no clash: create-first.
 * 4. Anything else (dynamic state written before the hidden input existed) deletes first.
 */
export function replacementOrder(q: ReplacementQuestion): ReplaceOrder {
  if (q.option !== undefined) return q.option ? "delete-first" : "create-first";
  const asked = q.news?.deleteBeforeReplace;
  if (typeof asked === "boolean") return asked ? "delete-first" : "create-first";
  if (!isNativeType(q.type)) return "delete-first";
  const found = plannedKindOf(q.type, q.news ?? q.olds);
  if (!found || !q.olds || !q.news) return "create-first";
  const fromUrn = q.urn ? importIdentityOf(q.urn) : {};
  const identities = { before: found.kind.identity({ ...q.olds, ...fromUrn }), after: found.kind.identity({ ...q.news, ...fromUrn }) };
  const order = coreOrder("provider", found.kind.replaceOrder, identities);
  return order === "clash" ? "delete-first" : order;
}

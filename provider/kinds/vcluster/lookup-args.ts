import type { Field, Value } from "../../core/definition/values";
import { optional, v } from "../../core/definition/values";
import { labelMap, orUnknown } from "../../core/validation";
import { z } from "zod";

/** A vcluster or snapshot id as the API reports it (`vc-1700000001-1`, `snap-1700000002-1`). */
export function vclusterIdValue(): Value<string> {
  return v.custom({ kind: "string" }, orUnknown(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, "must be an id such as \"vc-1700000001-1\"")));
}

/** A list filter of labels, sent as the API's label selector (`k=v,...`). */
export function labelsFilter(what: string): Field {
  return optional({ type: { kind: "map", of: { kind: "string" } }, validate: labelMap() }, { description: `Only ${what} with every one of these labels.` });
}

/** A labels filter as a label selector. */
export function labelSelector(labels: unknown): string {
  return Object.entries((labels ?? {}) as Record<string, string>)
    .map(([k, value]) => `${k}=${value}`)
    .join(",");
}

import { comparableLifecycle } from "./lifecycle";
import { listFields, shapeOf } from "./normalize";
import type { Observation } from "./runner";
import type { Step } from "./scenarios";

/**
 * What of a step's normalised observation is compared between the servers, as the step asks: the
 * action's lifecycle as lifecycle.ts reduces it, a listing's items cut to the step's `fields`, the
 * `unordered` lists as sets (sorted by their items' text), then everything, the status and keys
 * (`shape`), or the status alone.
 */
export function compared(step: Step, observed: Observation): unknown {
  const o = structuredClone(observed);
  if (o.lifecycle) o.lifecycle = comparableLifecycle(o.lifecycle);
  if (step.fields) o.body = listFields(o.body, step.fields);
  // Lists compared as sets: sorted by their items' text, once cut to the fields compared.
  for (const path of step.unordered ?? []) {
    const keys = path.split(".");
    const parent = keys.slice(0, -1).reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o) as Record<string, unknown> | undefined;
    const list = parent?.[keys.at(-1)!];
    if (Array.isArray(list)) parent![keys.at(-1)!] = list.map((item) => [JSON.stringify(item), item] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
  }
  if (step.compare === "status") return { status: o.status };
  if (step.compare === "shape") return { status: o.status, headers: o.headers, body: shapeOf(o.body) };
  return o;
}

import { type Field, optional, recorded, v } from "./definition/values";
import type { PlatformSize, PolicyTable } from "./planner";
import { isUnknown } from "./unknown";

type Props = Record<string, unknown>;

/**
 * Who owns a resource's size after create (`capacityOwner`, on the kinds whose size the platform
 * changes on its own: a Senlin cluster's scaling policies and receivers, CycleCloud's autoscaler).
 * `program` (the default, today's behaviour): the program's size is applied, and a size moved
 * outside the program is resized back. `platform`: the program's size is the initial one; after
 * create the live size stands, as pulumi-eks' `ignoreScalingChanges` does for a node group.
 */
export const CAPACITY_OWNERS = ["program", "platform"] as const;
export type CapacityOwner = (typeof CAPACITY_OWNERS)[number];

/**
 * The `capacityOwner` input of a kind with a size the platform may own (definition/kind.ts): `sizes`
 * name its size inputs, `bounded` says whether inputs bound them.
 */
export function capacityOwnerField(sizes: readonly string[], bounded: boolean): Field<CapacityOwner, false> {
  const named = sizes.map((s) => `\`${s}\``).join(" or ");
  const bounds = bounded ? "; a change of the bounds keeps the live size when it fits them and clamps it into them otherwise, the clamp named in the plan" : "";
  return optional(v.oneOf(CAPACITY_OWNERS), {
    description:
      `Who owns the size (${named}) after create. \`"program"\`: the program's size is applied, and a size the platform moved on ` +
      `its own is resized back by the next update. \`"platform"\`: the program's size is only the initial one; after create the ` +
      `live size stands, so a size the platform moved (refreshed into the state) plans no change${bounds}. Setting ` +
      `\`"program"\` again plans one resize to the program's size.`,
    default: '"program"',
    policy: recorded,
  });
}

/** The owner a state or inputs say: `program` when they say none (or it is not known yet). */
export function capacityOwnerOf(props: Props): CapacityOwner {
  return props.capacityOwner === "platform" ? "platform" : "program";
}

/** True when `props` hand the size to the platform. */
export const platformOwnsCapacity = (props: Props): boolean => capacityOwnerOf(props) === "platform";

/** A platform-owned size the new bounds do not hold: the plan moves it to the nearest bound. */
export interface Clamp {
  field: string;
  /** The live size, as the state records it. */
  from: number;
  /** The size the new bounds allow. */
  to: number;
}

/** The new inputs as a change of a resource plans them, with the sizes the platform owns. */
export interface CapacityView {
  /** `news` with every platform-owned size at the value the plan keeps: the live one, clamped into the new bounds. */
  news: Props;
  /** The size inputs the platform owns in this change (the program's values do not count). */
  owned: string[];
  clamps: Clamp[];
}

/** A bound's value: a number, undefined (none: unbounded), or unknown until the `up`. */
function boundOf(news: Props, key: string | undefined): number | undefined | "unknown" {
  if (key === undefined) return undefined;
  const value = news[key];
  if (isUnknown(value)) return "unknown";
  return typeof value === "number" ? value : undefined;
}

/** `size` within `min..max` (a negative max is unbounded); undefined while a bound is unknown. */
function clampInto(size: number, spec: PlatformSize, news: Props): number | undefined {
  const [min, max] = [boundOf(news, spec.min), boundOf(news, spec.max)];
  if (min === "unknown" || max === "unknown") return undefined;
  let to = size;
  if (max !== undefined && max >= 0 && to > max) to = max;
  if (min !== undefined && to < min) to = min;
  return to;
}

/**
 * The one rule of platform-owned sizes, read by the diff, the update and every plan report: when
 * `news` say `capacityOwner: "platform"`, each size input the kind marks `platformSize` takes the
 * value `olds` (the state: the live size as the last create, update or refresh saw it) hold,
 * clamped into the new bounds. A size with no recorded value keeps the program's. Turning the
 * owner back to `"program"` takes the program's size again (one resize when they differ). A
 * create is not a change: the program's size is the initial one.
 */
export function withPlatformCapacity(policies: PolicyTable, olds: Props, news: Props): CapacityView {
  if (!platformOwnsCapacity(news)) return { news, owned: [], clamps: [] };
  const kept: Props = { ...news };
  const owned: string[] = [];
  const clamps: Clamp[] = [];
  for (const [field, policy] of Object.entries(policies)) {
    if (policy.kind !== "update" || policy.platformSize === undefined) continue;
    const live = olds[field];
    if (news[field] === undefined || typeof live !== "number") continue;
    owned.push(field);
    // While a bound is unknown (preview), the live size stands; the update clamps with known bounds.
    const to = clampInto(live, policy.platformSize, news) ?? live;
    if (to !== live) clamps.push({ field, from: live, to });
    kept[field] = to;
  }
  return { news: owned.length > 0 ? kept : news, owned, clamps };
}

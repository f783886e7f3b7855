import type { Props } from "../contract";
import { UNKNOWN } from "../unknown";

/*
 * Versioned state. A kind's state schema has a version: the number of migrations its definition
 * declares (0 for a kind that never changed a field). State carries the version it was written at
 * under SCHEMA_VERSION (absent: 0, every state written before versions existed); the core upgrades
 * older state through the declared migrations before it reads, plans, updates or deletes anything,
 * in every engine. OpenTofu keeps the version in its own `schema_version` and asks the provider to
 * upgrade stored attributes (engines/terraform's UpgradeResourceState) with the same migrations.
 */

/** The state key holding the schema version a state was written at (absent for version 0). */
export const SCHEMA_VERSION = "__schemaVersion";

/**
 * One change of a top-level field, declared as data. Each step acts only where its source is in
 * the state (a default only where its field is absent), so a step never touches what it did not
 * describe. Conversions see the value in the definitions' keys (nested objects included).
 */
export type MigrationStep =
  /** The field `rename` is now `to`; `convert` changes its value on the way (a unit change). */
  | { readonly rename: string; readonly to: string; readonly convert?: (value: unknown) => unknown }
  /** The field keeps its name; its value changes shape or unit. */
  | { readonly convert: string; readonly with: (value: unknown) => unknown }
  /** The field is now several: `into` gives the new fields from the old value. */
  | { readonly split: string; readonly into: (value: unknown) => Props }
  /** A field older state lacks takes this value (what the platform did before the field existed). */
  | { readonly default: string; readonly value: unknown };

/** One migration: the state of one schema version to the next. */
export interface Migration {
  /** The release that made it, e.g. `"0.3.0"`: warnings and the reference name it. */
  readonly release: string;
  /** Why the field changed, in a sentence: the reference and the changelog print it. */
  readonly why: string;
  readonly steps: readonly MigrationStep[];
}

/** The schema version a kind with these migrations writes. */
export function schemaVersionOf(migrations: readonly Migration[] | undefined): number {
  return migrations?.length ?? 0;
}

/** The version `props` was written at: its SCHEMA_VERSION, 0 when absent. */
export function versionOfState(props: Props): number {
  const version = props[SCHEMA_VERSION];
  return typeof version === "number" && Number.isInteger(version) && version >= 0 ? version : 0;
}

/** What a migration step takes from the state: the old field it reads (none for a default). */
function sourceOf(step: MigrationStep): string | undefined {
  if ("rename" in step) return step.rename;
  if ("split" in step) return step.split;
  if ("convert" in step && typeof step.convert === "string") return step.convert;
  return undefined;
}

/** A rename or a split: its source is no field of today's definition. */
function retires(step: MigrationStep): boolean {
  return "rename" in step || "split" in step;
}

/** Every field the migrations read from older state: retired ones and those converted in place. */
export function migratedFields(migrations: readonly Migration[] | undefined): string[] {
  return (migrations ?? []).flatMap((m) => m.steps.map(sourceOf).filter((field): field is string => field !== undefined));
}

/** The fields the migrations retired (renamed or split away), each with the migration that did. */
export function retiredFields(migrations: readonly Migration[] | undefined): { field: string; release: string; why: string }[] {
  return (migrations ?? []).flatMap(({ release, why, steps }) => steps.filter(retires).map((step) => ({ field: sourceOf(step)!, release, why })));
}

/** A conversion that lets the preview's unknown sentinel through unconverted. */
function converted(convert: ((value: unknown) => unknown) | undefined, value: unknown): unknown {
  return convert === undefined || value === UNKNOWN ? value : convert(value);
}

/** `props` with one step applied; a step whose source is absent changes nothing. */
function applyStep(props: Props, step: MigrationStep): Props {
  const source = sourceOf(step);
  if (source === undefined) {
    const { default: field, value } = step as { default: string; value: unknown };
    return props[field] === undefined ? { ...props, [field]: value } : props;
  }
  const value = props[source];
  if (value === undefined) return props;
  const { [source]: _old, ...rest } = props;
  if ("rename" in step) return { ...rest, [step.to]: converted(step.convert, value) };
  if ("split" in step) return value === UNKNOWN ? rest : { ...rest, ...step.into(value) };
  return { ...rest, [source]: converted((step as { with: (v: unknown) => unknown }).with, value) };
}

/**
 * `props` (a state, or inputs the engine recorded) written at schema version `from`, upgraded
 * through `migrations` to the current version and marked with it.
 * @throws Error when the state was written by a newer release than this one: nothing
 * may read it with today's fields (a value would be lost).
 */
export function upgradeProps(type: string, migrations: readonly Migration[] | undefined, props: Props, from = versionOfState(props)): Props {
  const current = schemaVersionOf(migrations);
  if (from > current) {
    throw new Error(
      `${type}: this state was written by a newer Clusterform (state schema version ${from}; this release reads up to ${current}): ` +
        "use that release or a later one, so that no field it added is lost",
    );
  }
  let upgraded: Props = { ...props };
  delete upgraded[SCHEMA_VERSION];
  for (const migration of (migrations ?? []).slice(from)) {
    for (const step of migration.steps) upgraded = applyStep(upgraded, step);
  }
  return withSchemaVersion(current, upgraded);
}

/**
 * A state (or the inputs an engine recorded) as this release's fields have it: written by an older
 * release, it is upgraded through the kind's migrations. Every core call that reads a recorded
 * state goes through it first, whatever the engine, and so does the plan report of a saved preview.
 */
export function upgradeState(kind: { readonly type: string; readonly migrations?: readonly Migration[] }, props: Props): Props {
  return upgradeProps(kind.type, kind.migrations, props);
}

/** `props` marked with schema version `version` (no marker for version 0, as every older state). */
export function withSchemaVersion(version: number, props: Props): Props {
  if (version === 0) {
    if (!(SCHEMA_VERSION in props)) return props;
    const { [SCHEMA_VERSION]: _v, ...rest } = props;
    return rest;
  }
  return { ...props, [SCHEMA_VERSION]: version };
}

/** A program's input written under a name a migration retired, as the current fields have it. */
export interface RetiredInput {
  /** The old name the program used. */
  readonly name: string;
  /** What to write instead, e.g. `actionTimeout: "30m"`. */
  readonly instead: string;
  readonly release: string;
  readonly why: string;
}

/**
 * A program's inputs with the fields migrations renamed or split (and today's definition no longer
 * has) moved to their new fields, as stored state is; each such field is listed so that the
 * program can be told to change. `current` are the kind's input names.
 */
export function retiredInputs(migrations: readonly Migration[] | undefined, current: ReadonlySet<string>, news: Props): { news: Props; retired: RetiredInput[] } {
  let moved = news;
  const retired: RetiredInput[] = [];
  for (const migration of migrations ?? []) {
    for (const step of migration.steps) {
      const source = sourceOf(step);
      if (source === undefined || current.has(source) || !retires(step) || moved[source] === undefined) continue;
      const before = new Set(Object.keys(moved));
      moved = applyStep(moved, step);
      const added = Object.keys(moved).filter((k) => !before.has(k) || k === ("rename" in step ? step.to : ""));
      const instead = added.map((k) => `${k}: ${moved[k] === UNKNOWN ? "<computed>" : JSON.stringify(moved[k])}`).join(", ");
      retired.push({ name: source, instead, release: migration.release, why: migration.why });
    }
  }
  return { news: moved, retired };
}

/** The warning for a program still writing a retired input. */
export function retiredWarning(type: string, r: RetiredInput): string {
  return `${type}: the input ${JSON.stringify(r.name)} was replaced in ${r.release} (${r.why}); this run reads it as ${r.instead}: write that instead, a later release will refuse the old name`;
}

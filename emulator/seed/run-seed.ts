import { createHash } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type { PlatformModule } from "../platform";
import { createSeedClient, SeedError } from "./seed-client";
import type { SeedSections } from "./seed-file";

/** A clock whose time a seed may move back: the server's clock with an offset. */
export interface ShiftableClock {
  now(): number;
  /** Milliseconds added to the underlying clock's time (negative: the past). */
  shiftMs: number;
}

/** Wraps a clock so seeding can run in the past. */
export function shiftableClock(base: { now(): number }): ShiftableClock {
  const clock: ShiftableClock = { shiftMs: 0, now: () => base.now() + clock.shiftMs };
  return clock;
}

/**
 * Simulated time between two phases of a seed at time scale 1 (scaled up with it): longer than
 * any operation of any platform, so each phase finds the previous one's operations ended.
 */
const PHASE_MS = 10 * 60_000;

/** What {@link applySeed} needs. */
export interface ApplySeedOptions {
  file: string;
  sections: SeedSections;
  modules: readonly PlatformModule[];
  baseUrl: string;
  db: DatabaseSync;
  clock: ShiftableClock;
  timeScale: number;
  /** Turns the audit of calls off (true) and on again (false): seeded objects were made by no one's call. */
  quiet(on: boolean): void;
}

/**
 * Creates a seed file's objects through the plane's own API, as if it had happened before the
 * plane started: the phases run with the clock moved back (phase after phase, each
 * {@link PHASE_MS} later), so by the real time every operation has ended and objects read as
 * settled (RUNNING, ACTIVE). Runs once per data folder (and again after a reset): a restart on the
 * same data does not create the objects twice. Calls are not audited.
 */
export async function applySeed(opts: ApplySeedOptions): Promise<void> {
  const digest = createHash("sha256").update(JSON.stringify([...opts.sections])).digest("hex");
  const applied = opts.db.prepare("SELECT value FROM plane_meta WHERE key = 'seed'").get() as { value: string } | undefined;
  if (applied) return;
  const client = createSeedClient(opts.baseUrl);
  const seeded = opts.modules.filter((m) => m.seed && opts.sections.has(m.api));
  const phases = Math.max(0, ...seeded.map((m) => m.seed!.phases.length));
  const spacing = PHASE_MS * Math.max(1, opts.timeScale);
  opts.quiet(true);
  try {
    for (let phase = 0; phase < phases; phase++) {
      opts.clock.shiftMs = -(phases - phase) * spacing;
      for (const module of seeded) await module.seed!.phases[phase]?.(client, opts.sections.get(module.api));
    }
  } catch (error) {
    const message = error instanceof SeedError ? error.message : error instanceof Error ? error.message : String(error);
    throw new Error(`invalid seed file "${opts.file}": ${message}`);
  } finally {
    opts.clock.shiftMs = 0;
    opts.quiet(false);
  }
  opts.db.prepare("INSERT OR REPLACE INTO plane_meta (key, value) VALUES ('seed', ?)").run(digest);
}

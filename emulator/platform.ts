import type { DatabaseSync } from "node:sqlite";
import type { z } from "zod";
import type { ConnectRouter } from "@connectrpc/connect";
import type { CallPipeline } from "./calls";
import type { Clock } from "./clock";
import type { FaultRegistry } from "./faults";
import type { KubernetesHost } from "./kubernetes/host";
import type { RouteHandler } from "./http-json";
import type { SeedClient } from "./seed/seed-client";

/** What the server hands every platform module when it starts. */
export interface PlatformContext {
  /** The shared SQLite database; the module's `schema` has been applied to it. */
  db: DatabaseSync;
  clock: Clock;
  /** Multiplies every simulated duration; 0 makes operations end at once. */
  timeScale: number;
  /** Runs each API call through faults and the audit log. */
  pipeline: CallPipeline;
  /** The fault registry, for faults a module consumes outside a call (a node that fails to start). */
  faults: FaultRegistry;
  /** The server's base URL (`http://host:port`), known once it listens: for `Location` headers and catalogs. */
  baseUrl(): string;
  /** This platform's own options, as its command-line flags or the caller set them. */
  options: Readonly<Record<string, unknown>>;
  /** Real API servers behind the clusters, with `--kubernetes`; absent without it. */
  kubernetes?: KubernetesHost;
}

/** What a started platform serves. */
export interface MountedPlatform {
  /** Registers the platform's gRPC services on the shared router. */
  registerGrpc?(router: ConnectRouter): void;
  /** The platform's REST routes; answers false for requests that are not its own. */
  http?: RouteHandler;
  /** Read-only admin views by path, each under `/_local/<api>/`. */
  views?: Readonly<Record<string, () => unknown>>;
  /** Admin actions by path and method (POST, DELETE), each under `/_local/<api>/`. */
  actions?: Readonly<Record<string, Readonly<Record<string, (body: unknown, url: URL) => unknown | Promise<unknown>>>>>;
  /**
   * Called after the plane's database was replaced under the platform: `load` (a saved plane was
   * loaded: re-arm timers, drop open streams) or `reset` (everything was emptied: also put back what
   * a fresh start creates, such as a default cluster). @default nothing to do
   */
  reload?(why: "load" | "reset"): void;
  /** Stops timers and open streams; the database is closed by the server. */
  close?(): void | Promise<void>;
}

/** A command-line flag a platform adds to `clusterform-local`. */
export interface PlatformFlag {
  /** The flag without dashes, e.g. `cmassh-versions`. */
  name: string;
  /** One line of help. */
  help: string;
  /** The key in the platform's options. */
  option: string;
  /** Turns the raw text into the option's value; throws an Error naming what is allowed. */
  parse(raw: string): unknown;
}

/**
 * How a platform creates the objects of its section of a seed file (`--seed`). The server checks
 * every section against its schema before anything starts, then runs phase 1 of every platform,
 * lets simulated time pass until their operations ended, then phase 2, and so on: parents in one
 * phase, what needs them settled (a policy attached to a running cluster) in a later one.
 */
export interface PlatformSeed<T = unknown> {
  /** The section's schema (zod); its errors name the field. */
  schema: z.ZodType<T>;
  /** The phases, in order; each creates its objects through the plane's own API. */
  phases: readonly ((client: SeedClient, section: T) => Promise<void>)[];
}

/** A platform's seed with its own section type, as {@link PlatformModule.seed} holds it (the schema checks the section first). */
export function defineSeed<T>(seed: PlatformSeed<T>): PlatformSeed {
  return seed as unknown as PlatformSeed;
}

/**
 * One emulated platform. The server mounts every module of `PLATFORMS` (platforms.ts): adding a
 * platform touches no other platform's files.
 */
export interface PlatformModule {
  /** The API name calls are audited and faults matched under, e.g. `cmassh`. */
  api: string;
  /** SQL run at start (`CREATE TABLE IF NOT EXISTS ...`); table names start with `<api>_`. */
  schema: string;
  /** Operation names faults may name for this API (RPC methods or documented REST names). */
  operations: readonly string[];
  /** Fault actions beyond `error`, `delay` and `fail-operation` that this platform consumes. @default [] */
  faultActions?: readonly string[];
  /** Command-line flags. @default [] */
  flags?: readonly PlatformFlag[];
  /** Checks the platform's options before anything starts; throws a RangeError naming the option. */
  validateOptions?(options: Readonly<Record<string, unknown>>): void;
  /** The platform's section of a seed file (`<api>:` at its top). @default none: the section is refused */
  seed?: PlatformSeed;
  start(ctx: PlatformContext): MountedPlatform;
}

import { expect } from "vitest";
import { freePort } from "../../emulator/kubernetes/free-port";
import type { TestPlane } from "../../emulator/testing";
import { createSenlinClient, type SenlinClient } from "../clients/senlin/client";
import type { ConfigReader } from "../core/config";
import { PartialStateError, SILENT } from "../core/contract";
import type { Kind } from "../core/definition/kind";
import type { EngineTraits } from "../core/engine";
import { Holds, memoryHoldStore } from "../core/holds";
import type { ImportIdentity, ImportResult } from "../core/import";
import { createCore } from "../core/runtime";
import { IMPORT_UNREPORTED } from "../core/unreported";
import { type DynamicMethods, dynamicMethods } from "../engines/dynamic/provider";
import { DYNAMIC_ENGINE } from "../engines/dynamic/engine";

// Test helpers of provider/kinds (not built into the package). Shared steps of the per-kind import tests (provider/kinds/*/*/import.test.ts).

type Props = Record<string, unknown>;

/** A kind served as the dynamic provider serves it (hidden inputs, answers), over a core of its own. */
export interface TestHandler extends DynamicMethods {
  /** The object's identity as the kind forms it from inputs. */
  identity(inputs: Props): string | undefined;
}

/**
 * The kind as Pulumi's dynamic provider host sees it, over a core with its own held objects (so
 * tests do not share a run), for the engine `engine` (the dynamic provider's by default).
 */
export function testHandler(kind: Kind, engine: EngineTraits = DYNAMIC_ENGINE): TestHandler {
  const core = createCore({ engine, holds: new Holds(engine, memoryHoldStore()), reporterFor: () => SILENT });
  return { ...dynamicMethods(core, async () => kind), identity: (inputs) => kind.identity(inputs) };
}

/** A kind's import as the engines call it (by id, under a resource's identity), with its facts. */
export interface TestImporter {
  readonly definition: { kind: string; idShape: string; unreported: readonly string[] };
  /** The platform whose endpoint the import reads. */
  platform(): Promise<string>;
  importObject(id: string, identity: ImportIdentity, config: ConfigReader): Promise<ImportResult>;
}

/** The import of a kind over a fresh core per call, configured with the call's configuration. */
export function testImporter(kind: Kind): TestImporter {
  return {
    definition: { kind: kind.type, idShape: kind.importId?.shape ?? "", unreported: kind.importId?.unreported ?? [] },
    platform: async () => (await kind.importer()).platform,
    importObject(id, identity, config) {
      const core = createCore({ engine: DYNAMIC_ENGINE, holds: new Holds(DYNAMIC_ENGINE, memoryHoldStore()), reporterFor: () => SILENT, config });
      return core.import(kind, { id, identity });
    },
  };
}

/** The identity the tests import under: what the SDK sends for a resource named `imported`. */
export const IMPORT_IDENTITY: ImportIdentity = { owner: "fedcba9876543210", resourceName: "imported" };

/** Calls that only read: gets, lists, watches, queries, and the Keystone token every Senlin call needs. */
const READ = /^(Get|List|Watch|Query|Lookup)|^keystone:CreateToken$/;

/** The audit entries after `since` that are not reads, as `api:operation`. */
export async function writesSince(t: TestPlane, since: number): Promise<string[]> {
  const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: { seq: number; api: string; operation: string }[] };
  return entries
    .filter((e) => e.seq > since)
    .map((e) => `${e.api}:${e.operation}`)
    .filter((call) => !READ.test(call.split(":")[1]) && !READ.test(call));
}

/** The audit entries after `since`, as `api:operation`. */
export async function callsSince(t: TestPlane, since: number): Promise<string[]> {
  const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: { seq: number; api: string; operation: string }[] };
  return entries.filter((e) => e.seq > since).map((e) => `${e.api}:${e.operation}`);
}

/** The sequence number of the newest audit entry (0 when none). */
export async function lastSeq(t: TestPlane): Promise<number> {
  const { entries } = (await t.http("GET", "/_local/audit")).body as { entries: { seq: number }[] };
  return entries.reduce((max, e) => Math.max(max, e.seq), 0);
}

/** What {@link importRoundTrip} needs. */
export interface RoundTrip {
  t: TestPlane;
  config: ConfigReader;
  handler: TestHandler;
  importer: TestImporter;
  /** The id create returned. */
  id: string;
  /** The inputs create was given (after check). */
  created: Props;
}

const HIDDEN = ["__provider", "owner", "resourceName", "deleteBeforeReplace", "resourceUrn", "timeouts"];
const without = (props: Props, keys: readonly string[]): Props => Object.fromEntries(Object.entries(props).filter(([k]) => !keys.includes(k)));

/**
 * Imports `id` with no properties and asserts what every kind must hold: only reads reach the
 * platform, the id is create's, the inputs are the created ones minus what the platform cannot
 * report (under the importing resource's identity), and program code holding those inputs plus the
 * unreported ones as created checks cleanly and plans no change against the imported state.
 */
export async function importRoundTrip(rt: RoundTrip): Promise<ImportResult> {
  const since = await lastSeq(rt.t);
  const result = await rt.importer.importObject(rt.id, IMPORT_IDENTITY, rt.config);
  expect(await writesSince(rt.t, since)).toEqual([]);
  expect(await callsSince(rt.t, since)).not.toEqual([]);
  expect(result.id).toBe(rt.id);
  // What this object's platform could not report, as the import recorded it (the tests assert it per kind).
  const marked = result.props[IMPORT_UNREPORTED];
  const unreported = Array.isArray(marked) ? (marked as string[]) : [];
  expect(unreported.every((field) => rt.importer.definition.unreported.includes(field))).toBe(true);
  expect(result.inputs).toEqual({ ...without(rt.created, [...HIDDEN, ...unreported]), ...IMPORT_IDENTITY });
  const program = { ...result.inputs, ...pick(rt.created, unreported), __provider: "p" };
  const checked = await rt.handler.check(result.inputs, program);
  expect(checked.failures).toEqual([]);
  expect(await rt.handler.diff(rt.id, result.props, checked.inputs)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
  return result;
}

function pick(props: Props, keys: readonly string[]): Props {
  return Object.fromEntries(keys.filter((k) => props[k] !== undefined).map((k) => [k, props[k]]));
}

/** Asserts the three failures: a wrong-shaped id (no call at all), an id that does not exist, an unreachable endpoint. */
export async function importFailures(rt: Omit<RoundTrip, "id" | "created">, badShape: string, missing: string): Promise<void> {
  const { kind, idShape } = rt.importer.definition;
  const since = await lastSeq(rt.t);
  await expect(rt.importer.importObject(badShape, IMPORT_IDENTITY, rt.config)).rejects.toThrow(
    `importing ${kind} ${JSON.stringify(badShape)}: BAD_IMPORT_ID: ${JSON.stringify(badShape)} has the wrong shape: the import id of ${kind} is ${idShape}`,
  );
  expect(await callsSince(rt.t, since)).toEqual([]);
  await expect(rt.importer.importObject(missing, IMPORT_IDENTITY, rt.config)).rejects.toThrow(
    `importing ${kind} ${JSON.stringify(missing)}: IMPORT_NOT_FOUND: no such object at ${rt.t.plane.url}; the import id of ${kind} is ${idShape}`,
  );
  expect(await writesSince(rt.t, since)).toEqual([]);
  const unreachable = await unreachableConfig(rt.config);
  const err = await rt.importer.importObject(missing, IMPORT_IDENTITY, unreachable).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(Error);
  const prefix = `importing ${kind} ${JSON.stringify(missing)} (${await rt.importer.platform()} endpoint ${unreachable.url} unreachable): `;
  expect((err as Error).message.startsWith(prefix), (err as Error).message).toBe(true);
}

/** The credentials the local control plane accepts, as provider configuration keys. */
export const PLANE_CREDENTIALS: Readonly<Record<string, string>> = {
  "clusterform:cyclecloudUsername": "admin",
  "clusterform:cyclecloudPassword": "admin",
  "clusterform:senlinUsername": "admin",
  "clusterform:senlinPassword": "admin",
  "clusterform:senlinProjectName": "admin",
};

/** The provider configuration that reaches the plane at `url` with its credentials, and `extra` keys. */
export function planeConfig(url: string, extra: Readonly<Record<string, string>> = {}): ConfigReader {
  const all: Record<string, string> = { ...PLANE_CREDENTIALS, ...extra, "clusterform:endpoint": url };
  return { get: (key) => all[key] };
}

/** A Senlin client of the plane's admin user (the Keystone the plane serves), for a test's fixtures and checks. */
export function planeSenlin(t: TestPlane): SenlinClient {
  return createSenlinClient({ credentials: { authUrl: `${t.plane.url}/v3`, username: "admin", password: "admin", projectName: "admin" } });
}

/** The URL of a local port nothing listens on (one just freed): every connection is refused. */
export async function refusedUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/** A configuration whose endpoint nothing listens on (a port just freed), retried for no time at all. */
export async function unreachableConfig(config: ConfigReader): Promise<ConfigReader & { url: string }> {
  const url = await refusedUrl();
  return { url, get: (key) => (key === "clusterform:endpoint" ? url : key === "clusterform:unreachableTimeout" ? "0s" : config.get(key)) };
}

/** What {@link testLookup} answers: the result and the calls it made, every one a read. */
export interface LookupRun {
  result: Props;
  /** The audit entries the lookup caused, as `api:operation` (Keystone's token excluded). */
  calls: string[];
}

/**
 * A kind's lookups as every engine runs them (the core's `lookup`, over a core of their own with
 * `config`): `run` asserts the lookup wrote nothing on the plane and returns its result and calls;
 * `fails` returns the error's message (and asserts nothing was written either).
 */
export function testLookup(kind: Kind, t: TestPlane, config: ConfigReader) {
  async function outcome(name: string, args: Props, on: ConfigReader = config) {
    const c = createCore({ engine: DYNAMIC_ENGINE, holds: new Holds(DYNAMIC_ENGINE, memoryHoldStore()), reporterFor: () => SILENT, config: on });
    return c.lookup(kind, { name, args });
  }
  return {
    async run(name: string, args: Props = {}): Promise<LookupRun> {
      const since = await lastSeq(t);
      const answer = await outcome(name, args);
      expect(answer.failures).toEqual([]);
      expect(await writesSince(t, since)).toEqual([]);
      const calls = (await callsSince(t, since)).filter((c) => c !== "keystone:CreateToken");
      return { result: answer.result ?? {}, calls };
    },
    /** The failures of arguments the lookup refuses (nothing called). */
    async refused(name: string, args: Props) {
      const since = await lastSeq(t);
      const answer = await outcome(name, args);
      expect(await callsSince(t, since)).toEqual([]);
      return answer.failures;
    },
    async fails(name: string, args: Props, on: ConfigReader = config): Promise<string> {
      const since = await lastSeq(t);
      const err = await outcome(name, args, on).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, `${kind.type} ${name} should fail`).toBeInstanceOf(Error);
      expect(await writesSince(t, since)).toEqual([]);
      return (err as Error).message;
    },
  };
}

/** The PartialStateError `promise` rejects with (an operation that failed after its object came to exist); fails the test otherwise. */
export async function partialOf(promise: Promise<unknown>): Promise<PartialStateError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PartialStateError);
  return err as PartialStateError;
}

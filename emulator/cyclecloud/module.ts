import * as fs from "node:fs";
import { defineSeed, type PlatformModule } from "../platform";
import { cyclecloudSeed } from "./seed";
import { NODE_FAULT_ACTIONS } from "./add-nodes";
import { cycleCloudActions, cycleCloudViews } from "./admin-views";
import type { CycleCloudEnv } from "./context";
import { type ClusterDefinition, DEMO_CLUSTER, parseDefinitionsFile } from "./definitions";
import { type Credentials, CYCLECLOUD_API, CYCLECLOUD_OPERATIONS, createCycleCloudRest } from "./rest";
import { CYCLECLOUD_SCHEMA } from "./schema";
import { CycleCloudStore } from "./store";

/** The credentials a fresh emulator accepts. */
export const DEFAULT_CREDENTIALS: Readonly<Credentials> = { user: "admin", password: "admin" };

function credentialsOf(options: Readonly<Record<string, unknown>>): Credentials {
  return {
    user: (options.user as string | undefined) ?? DEFAULT_CREDENTIALS.user,
    password: (options.password as string | undefined) ?? DEFAULT_CREDENTIALS.password,
  };
}

/** Reads and validates the definitions file; errors name the file, never a credential. */
function readDefinitions(file: string): ClusterDefinition[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new RangeError(`invalid cyclecloud clusters file "${file}": ${error instanceof Error ? error.message : String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new RangeError(`invalid cyclecloud clusters file "${file}": not JSON`);
  }
  try {
    return parseDefinitionsFile(json);
  } catch (error) {
    throw new RangeError(`invalid cyclecloud clusters file "${file}": ${error instanceof Error ? error.message : String(error)}`);
  }
}

const nonEmpty = (what: string) => (raw: string) => {
  if (raw === "") throw new Error(`expected a non-empty ${what}`);
  return raw;
};

/**
 * Seeds the clusters: those of the definitions file at every start (replacing definitions of the
 * same name), else the `demo` cluster once per data directory, so deleting it sticks.
 */
function seedClusters(store: CycleCloudStore, file: string | undefined): void {
  const definitions = file === undefined ? (store.meta("seeded") ? [] : [DEMO_CLUSTER]) : readDefinitions(file);
  for (const definition of definitions) store.putCluster(definition);
  store.setMeta("seeded", "1");
}

/**
 * Azure CycleCloud: the cluster REST API at the server root (`/clusters/...`, `/operations/...`),
 * HTTP Basic auth (`--cyclecloud-user`/`--cyclecloud-password`, default admin/admin), clusters
 * from `--cyclecloud-clusters <file>` or the admin API (default: `demo`). Admin views
 * `/_local/cyclecloud/{clusters,nodes,operations}`, actions in admin-views.ts, fault actions
 * `fail-node` and `preempt-node` (add-nodes.ts), durations in lifecycle.ts.
 *
 * Operation `action` values: CycleCloud documents only `create` (also used for scale); the
 * management calls report their own name (`terminate`, `deallocate`, ...).
 */
export const cyclecloudModule: PlatformModule = {
  api: CYCLECLOUD_API,
  schema: CYCLECLOUD_SCHEMA,
  operations: CYCLECLOUD_OPERATIONS,
  seed: defineSeed(cyclecloudSeed),
  faultActions: NODE_FAULT_ACTIONS,
  flags: [
    { name: "cyclecloud-user", help: "user name CycleCloud accepts (default admin)", option: "user", parse: nonEmpty("user name") },
    { name: "cyclecloud-password", help: "password CycleCloud accepts (default admin)", option: "password", parse: nonEmpty("password") },
    {
      name: "cyclecloud-clusters",
      help: 'JSON file of CycleCloud cluster definitions, {"clusters": [...]} (default: one cluster "demo")',
      option: "clustersFile",
      parse: nonEmpty("file path"),
    },
  ],
  validateOptions(options) {
    for (const key of ["user", "password"] as const) {
      const value = options[key];
      if (value !== undefined && (typeof value !== "string" || value === "")) throw new RangeError(`invalid cyclecloud ${key}: expected a non-empty string`);
    }
    if (options.clustersFile !== undefined) readDefinitions(String(options.clustersFile));
  },
  start(ctx) {
    const store = new CycleCloudStore(ctx.db);
    seedClusters(store, ctx.options.clustersFile as string | undefined);
    const env: CycleCloudEnv = { db: ctx.db, store, clock: ctx.clock, timeScale: ctx.timeScale, faults: ctx.faults, baseUrl: ctx.baseUrl };
    return {
      http: createCycleCloudRest(env, ctx.pipeline, credentialsOf(ctx.options)),
      views: cycleCloudViews(env),
      actions: cycleCloudActions(env),
      // After a reset the clusters are defined again, as at a first start.
      reload: (why) => {
        if (why === "reset") seedClusters(store, ctx.options.clustersFile as string | undefined);
      },
    };
  },
};

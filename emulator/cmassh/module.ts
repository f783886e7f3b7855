import { CmasshStore } from "./store";
import { defineSeed, type PlatformModule } from "../platform";
import { cmasshSeed } from "./seed";
import { kubeconfigForAdmin, listClustersForAdmin } from "./admin-view";
import type { CmasshEnv } from "./context";
import { apiServerTargets } from "./kubernetes";
import { createCmasshGateway } from "./rest-gateway";
import { CMASSH_API, CMASSH_OPERATIONS, createCmasshService } from "./service";
import { compareVersions, DEFAULT_CMASSH_VERSIONS, parseVersion } from "./versions";

/** cma-ssh's tables. Operation times are absolute epoch milliseconds, so state survives restarts. */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS cmassh_clusters (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  k8s_version TEXT NOT NULL,
  cp_instance_type TEXT NOT NULL,
  cp_count INTEGER NOT NULL,
  cp_labels TEXT NOT NULL,
  token TEXT NOT NULL,
  provisioned INTEGER NOT NULL DEFAULT 0,
  error_message TEXT NOT NULL DEFAULT '',
  error_at_ms INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS cmassh_pools (
  cluster_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  instance_type TEXT NOT NULL,
  count INTEGER NOT NULL,
  labels TEXT NOT NULL,
  PRIMARY KEY (cluster_id, name)
);
CREATE TABLE IF NOT EXISTS cmassh_operations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  cluster_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  payload TEXT NOT NULL DEFAULT '{}',
  settled INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS cmassh_operations_pending ON cmassh_operations (settled, end_ms);
`;

function versionsOption(options: Readonly<Record<string, unknown>>): readonly string[] {
  return (options.versions as string[] | undefined) ?? DEFAULT_CMASSH_VERSIONS;
}

/** cma-ssh: gRPC service `cmassh.Cluster` and its REST gateway under `/api/v1`. */
export const cmasshModule: PlatformModule = {
  api: CMASSH_API,
  schema: SCHEMA,
  operations: CMASSH_OPERATIONS,
  seed: defineSeed(cmasshSeed),
  flags: [
    {
      name: "cmassh-versions",
      help: "Kubernetes versions offered for cma-ssh upgrades (x.y.z,...)",
      option: "versions",
      parse: (raw) => {
        const versions = raw.split(",").map((v) => v.trim());
        const bad = versions.find((v) => parseVersion(v) === undefined);
        if (bad !== undefined) throw new Error(`invalid version "${bad}": expected a comma-separated list of x.y.z, e.g. 1.31.6,1.32.3`);
        return versions;
      },
    },
  ],
  validateOptions(options) {
    const bad = versionsOption(options).find((v) => parseVersion(v) === undefined);
    if (bad !== undefined) throw new RangeError(`invalid cmassh version "${bad}": expected x.y.z, e.g. 1.31.6`);
  },
  start(ctx) {
    const env: CmasshEnv = {
      store: new CmasshStore(ctx.db),
      clock: ctx.clock,
      timeScale: ctx.timeScale,
      versions: [...versionsOption(ctx.options)].sort(compareVersions),
      startedAt: new Date(ctx.clock.now()).toISOString(),
      kubernetes: ctx.kubernetes,
    };
    ctx.kubernetes?.register(CMASSH_API, () => apiServerTargets(env.store));
    const service = createCmasshService(env, ctx.pipeline);
    return {
      registerGrpc: (router) => service.register(router),
      http: createCmasshGateway(service),
      views: { "/_local/cmassh/clusters": () => listClustersForAdmin(env) },
      actions: { "/_local/cmassh/kubeconfig": { GET: (_body, url) => kubeconfigForAdmin(env, url) } },
    };
  },
};

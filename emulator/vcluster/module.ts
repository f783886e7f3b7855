import { defineSeed, type PlatformModule } from "../platform";
import { vclusterSeed } from "./seed";
import { kubeconfigForAdmin, listSnapshotsForAdmin, listUpdateMasksForAdmin, listVclustersForAdmin, setWorkloadsForAdmin } from "./admin-view";
import { settleDue, type VclusterEnv } from "./context";
import { Journal } from "./journal";
import { apiServerTargets } from "./kubernetes";
import { VCLUSTER_SCHEMA } from "./schema";
import { createVclusterService, VCLUSTER_API, VCLUSTER_OPERATIONS } from "./service";
import { SnapshotStore } from "./snapshot-store";
import { WorkloadStore } from "./drain";
import { ClusterStore } from "./store";
import { BREAK_WATCH_ACTION } from "./watch";

/**
 * The longest the settle timer sleeps: a clock that jumps (a test's fake clock) is noticed within
 * this many real milliseconds, which bounds how late a watch hears of a time-driven change.
 */
export const MAX_TIMER_MS = 250;

/** With `--kubernetes`, how soon the timer looks again at an operation held for its API server. */
const HELD_RECHECK_MS = 100;

/** vcluster: gRPC services `vcluster.api.v1.VClusterService` and `SnapshotService`. */
export const vclusterModule: PlatformModule = {
  api: VCLUSTER_API,
  schema: VCLUSTER_SCHEMA,
  operations: VCLUSTER_OPERATIONS,
  seed: defineSeed(vclusterSeed),
  faultActions: [BREAK_WATCH_ACTION],
  flags: [
    {
      name: "vcluster-ignore-update-mask",
      help: "UpdateVCluster ignores update_mask, as the API's reference server does (true|false)",
      option: "ignoreUpdateMask",
      parse: (raw) => {
        if (raw !== "true" && raw !== "false") throw new Error(`invalid --vcluster-ignore-update-mask ${JSON.stringify(raw)}: expected true or false`);
        return raw === "true";
      },
    },
  ],
  validateOptions(options) {
    const value = options.ignoreUpdateMask;
    if (value !== undefined && typeof value !== "boolean") {
      throw new RangeError(`invalid vcluster option ignoreUpdateMask ${JSON.stringify(value)}: expected true or false`);
    }
  },
  start(ctx) {
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    const env: VclusterEnv = {
      clusters: new ClusterStore(ctx.db),
      snapshots: new SnapshotStore(ctx.db),
      workloads: new WorkloadStore(ctx.db),
      journal: new Journal(ctx.db),
      clock: ctx.clock,
      timeScale: ctx.timeScale,
      faults: ctx.faults,
      listeners: new Set(),
      ignoreUpdateMask: ctx.options.ignoreUpdateMask === true,
      kubernetes: ctx.kubernetes,
      reschedule() {
        clearTimeout(timer);
        const due = closed ? undefined : env.clusters.nextDueMs();
        if (due === undefined) return;
        // An operation held for its API server stays due: look again shortly rather than at once.
        const floor = ctx.kubernetes ? HELD_RECHECK_MS : 0;
        timer = setTimeout(fire, Math.min(MAX_TIMER_MS, Math.max(floor, due - env.clock.now())));
        timer.unref();
      },
    };
    // Changes that come from the passage of time reach watches when they happen, not at the next read.
    const fire = () => {
      if (closed) return;
      settleDue(env);
      env.reschedule();
    };
    const service = createVclusterService(env, ctx.pipeline);
    ctx.kubernetes?.register(VCLUSTER_API, () => apiServerTargets(env.clusters));
    env.reschedule();
    return {
      registerGrpc: (router) => service.register(router),
      views: {
        "/_local/vcluster/vclusters": () => listVclustersForAdmin(env),
        "/_local/vcluster/snapshots": () => listSnapshotsForAdmin(env),
        "/_local/vcluster/update-masks": () => listUpdateMasksForAdmin(env),
      },
      actions: {
        "/_local/vcluster/kubeconfig": { GET: (_body, url) => kubeconfigForAdmin(env, url) },
        "/_local/vcluster/workloads": { POST: (body) => setWorkloadsForAdmin(env, body) },
      },
      // Watches followed the replaced vclusters: end them (clients watch again), and time the new ones.
      reload() {
        service.closeWatches();
        env.reschedule();
      },
      close() {
        closed = true;
        clearTimeout(timer);
        service.closeWatches();
      },
    };
  },
};

import { defineSeed, type PlatformModule } from "../platform";
import { pelotonSeed } from "./seed";
import { jobTimeline, listJobsForAdmin, listRespoolsForAdmin } from "./admin-view";
import { createPelotonEnv, FAIL_INSTANCE_ACTION, PELOTON_API } from "./env";
import { PELOTON_SCHEMA } from "./schema";
import { PELOTON_OPERATIONS, registerPeloton } from "./service";

/**
 * Uber Peloton v1alpha: gRPC `JobService` (stateless jobs) and `ResourcePoolService`, behind
 * YARPC's metadata rules. Admin views: `/_local/peloton/jobs`, `/_local/peloton/respools`, and
 * `/_local/peloton/timeline?job=<id>` (which pod ran which configuration version, when).
 * Fault action `fail-instance` (target: a job id) makes that many of the job's next pods fail to start.
 */
export const pelotonModule: PlatformModule = {
  api: PELOTON_API,
  schema: PELOTON_SCHEMA,
  operations: PELOTON_OPERATIONS,
  seed: defineSeed(pelotonSeed),
  faultActions: [FAIL_INSTANCE_ACTION],
  start(ctx) {
    const env = createPelotonEnv(ctx.db, ctx.clock, ctx.timeScale, ctx.faults);
    return {
      registerGrpc: (router) => registerPeloton(router, env, ctx.pipeline),
      views: {
        "/_local/peloton/jobs": () => listJobsForAdmin(env),
        "/_local/peloton/respools": () => listRespoolsForAdmin(env),
      },
      actions: { "/_local/peloton/timeline": { GET: (_body, url) => jobTimeline(env, url) } },
      // Every Peloton cluster has its root pool, whatever was loaded or emptied.
      reload: () => env.respools.ensureRoot(ctx.clock.now()),
    };
  },
};

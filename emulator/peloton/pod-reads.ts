import type { JobService } from "../../proto/gen/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb";
import type { PelotonEnv } from "./env";
import type { ServiceHandlers } from "./handler-types";
import { mustFindJob } from "./job-validation";
import { instanceViews, podStatus } from "./job-view";
import { podSpecFor } from "./pod-specs";

type Handlers = ServiceHandlers<typeof JobService>;

/** JobService reads of pods: ListPods (streamed in one message) and QueryPods. */
export function createPodReads(env: PelotonEnv): Pick<Handlers, "listPods" | "queryPods"> {
  return {
    listPods(request) {
      const job = mustFindJob(env, request.jobId?.value ?? "");
      const now = env.clock.now();
      const range = request.range;
      const inRange = (id: number) => !range || range.to <= range.from || (id >= range.from && id < range.to);
      const pods = instanceViews(env, job, now)
        .filter((v) => inRange(v.instanceId))
        .map((v) => ({ podName: { value: `${job.id}-${v.instanceId}` }, status: podStatus(env, job, v, now) }));
      return [{ pods }];
    },
    queryPods(request) {
      const job = mustFindJob(env, request.jobId?.value ?? "");
      const now = env.clock.now();
      const q = request.spec;
      const names = new Set(q?.names.map((n) => n.value) ?? []);
      const rows = instanceViews(env, job, now)
        .map((v) => ({ view: v, name: `${job.id}-${v.instanceId}`, status: podStatus(env, job, v, now) }))
        .filter(
          (row) =>
            (!q || q.podStates.length === 0 || q.podStates.includes(row.view.state)) &&
            (names.size === 0 || names.has(row.name)) &&
            (!q || q.hosts.length === 0 || q.hosts.includes(row.status.host ?? "")),
        );
      const pagination = request.pagination ?? q?.pagination;
      const offset = pagination?.offset ?? 0;
      const limit = pagination?.limit ?? 0;
      const page = rows.slice(offset, limit > 0 ? offset + limit : undefined);
      return {
        pods: page.map((row) => {
          const spec = env.jobs.findConfig(job.id, row.view.run.configVersion);
          return { spec: request.summaryOnly || !spec ? undefined : podSpecFor(spec, row.view.instanceId), status: row.status };
        }),
        pagination: { offset, limit, total: rows.length },
      };
    },
  };
}

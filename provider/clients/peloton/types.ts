import type { MessageInitShape } from "@bufbuild/protobuf";
import type {
  CreateSpecSchema,
  JobSpecSchema,
  UpdateSpecSchema,
} from "../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";
import type { InstanceIDRangeSchema, QuerySpecSchema as PodQuerySpecSchema } from "../../../proto/gen/peloton/api/v1alpha/pod/pod_pb";
import type { ResourcePoolSpecSchema } from "../../../proto/gen/peloton/api/v1alpha/respool/respool_pb";
import type { QuerySpecSchema } from "../../../proto/gen/peloton/api/v1alpha/job/stateless/stateless_pb";

/** A resource pool spec as plain fields (`{ name, parent: { value }, resources: [...] }`). */
export type ResourcePoolSpecInput = MessageInitShape<typeof ResourcePoolSpecSchema>;

/** A stateless job spec as plain fields. */
export type JobSpecInput = MessageInitShape<typeof JobSpecSchema>;

/** How a ReplaceJob rolls: batch size, retries, tolerated failures, rollback, start paused. */
export type UpdateSpecInput = MessageInitShape<typeof UpdateSpecSchema>;

/** How CreateJob rolls the first pods out. */
export type CreateSpecInput = MessageInitShape<typeof CreateSpecSchema>;

/** Instance ids `[from, to)`. */
export type InstanceRange = MessageInitShape<typeof InstanceIDRangeSchema>;

/** QueryJobs criteria. */
export type JobQueryInput = MessageInitShape<typeof QuerySpecSchema>;

/** QueryPods criteria. */
export type PodQueryInput = MessageInitShape<typeof PodQuerySpecSchema>;

/** A job id and the entity version a mutation left it at. */
export interface JobRef {
  jobId: string;
  /** `<config>-<desiredState>-<workflow>`; pass it to the next mutation. */
  version: string;
}

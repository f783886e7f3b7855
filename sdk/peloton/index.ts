/** Resources of Uber Peloton: resource pools and stateless jobs. */
export * from "./resource-pool";
export * from "./stateless-job";
import type { Workflow } from "./stateless-job";
/** @deprecated the name of {@link Workflow} before 0.3.0. */
export type WorkflowOutput = Workflow;

/** Resources of Uber Peloton: resource pools and stateless jobs. */
export { type ResourceArgs, ResourcePool, type ResourcePoolArgs, type Timeouts } from "./resource-pool";
export {
  type ContainerArgs,
  type HealthCheckArgs,
  type PodSpecArgs,
  StatelessJob,
  type StatelessJobArgs,
  type UpdatePolicyArgs,
  type WorkflowOutput,
} from "./stateless-job";

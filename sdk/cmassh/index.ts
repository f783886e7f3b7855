/** Resources of cma-ssh, the SSH-provisioned Kubernetes cluster manager. */
export { Cluster, type ClusterArgs, type ControlPlaneArgs, type Timeouts } from "./cluster";
export { NodePool, type NodePoolArgs } from "./node-pool";

/** Resources of cma-ssh, the SSH-provisioned Kubernetes cluster manager. */
export * from "./cluster";
export * from "./node-pool";

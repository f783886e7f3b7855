/** Resources of vcluster, virtual Kubernetes clusters with suspend, resume, snapshots and restores. */
export * from "./snapshot";
export * from "./vcluster";

/** Resources of OpenStack Senlin, the clustering service. */
export { Cluster, type ClusterArgs, type PolicyBindingArgs, type Timeouts } from "./cluster";

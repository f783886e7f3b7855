/** Resources of Azure CycleCloud, through its cluster REST API. */
export { NodePool, type NodePoolArgs, type Timeouts } from "./node-pool";

/** Resources of Azure CycleCloud, through its cluster REST API. */
export * from "./node-pool";

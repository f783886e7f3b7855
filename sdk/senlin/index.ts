/** Resources of OpenStack Senlin, the clustering service. */
export * from "./cluster";

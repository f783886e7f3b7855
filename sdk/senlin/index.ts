/** Resources of OpenStack Senlin, the clustering service. */
export * from "./cluster";
export * from "./policy";
export * from "./profile";
export * from "./receiver";

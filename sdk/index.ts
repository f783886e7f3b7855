/**
 * Clusterform: Pulumi resources for cluster platforms.
 *
 * @packageDocumentation
 */
export * as cmassh from "./cmassh";
export * as peloton from "./peloton";
export * as cyclecloud from "./cyclecloud";
export * as internal from "./internal";
export * as senlin from "./senlin";
export * as vcluster from "./vcluster";

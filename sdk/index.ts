/**
 * Clusterform: Pulumi resources for cluster platforms.
 *
 * @packageDocumentation
 */
export * as cmassh from "./cmassh";
export * as internal from "./internal";

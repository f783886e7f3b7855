/**
 * Clusterform: Pulumi resources for cluster platforms.
 *
 * @packageDocumentation
 */
export * as internal from "./internal";

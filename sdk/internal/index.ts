/**
 * Building blocks for packages that follow Clusterform's dynamic-provider pattern. Not covered by
 * semantic versioning: resources of this package are the supported API.
 */
export { providerSource } from "./resource";
export { createProviderShim } from "./shim";

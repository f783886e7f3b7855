import type * as pulumi from "@pulumi/pulumi";
// `@pulumi/pulumi/resource`, not the package's index: the index also loads the Automation API and
// the closure serializer (with npm's Arborist), about 0.3 CPU s per program process that a program
// using only this package's classes never needs. Pulumi's own `cmd/run` loads neither.
import { CustomResource, mergeOptions } from "@pulumi/pulumi/resource";

/** The entry point every Clusterform `__provider` text requires. It must keep resolving in every release. */
export const PROVIDER_MODULE = "clusterform/provider";

/**
 * The `__provider` text of a resource type: a one-line CommonJS module whose `handler` returns the
 * provider object that `moduleId`'s `dynamicProvider(resourceType)` builds.
 *
 * Pulumi's dynamic provider host only needs `__provider` to be module source that exports
 * `handler` (it loads it with require-from-string, resolving `require` from the program's folder).
 * Serializing a provider object with Pulumi's closure serializer instead gives 2.6 KB of text,
 * stored twice per resource (inputs and outputs) and rewritten with the whole checkpoint after
 * every step; this text is under 100 bytes, and builds nothing per resource.
 *
 * @param moduleId - the package entry point exporting `dynamicProvider(type)`, e.g. `"clusterform/provider"`.
 * @param resourceType - the type that entry point routes, e.g. `"cmassh:Cluster"`.
 */
export function providerSource(moduleId: string, resourceType: string): string {
  return `exports.handler = () => require(${JSON.stringify(moduleId)}).dynamicProvider(${JSON.stringify(resourceType)});`;
}

/**
 * `opts` with an alias of the resource's native-plugin type (`clusterform:<type>`): a stack whose
 * resource was written with the `clusterform/native` class moves to this class with no change on
 * the platform (the engine then sees one resource under a new type, not a create and a delete).
 * The user's own aliases are kept. The provider's bookkeeping inputs are hidden from diffs.
 */
export function dynamicResourceOptions(resourceType: string, opts?: pulumi.CustomResourceOptions): pulumi.CustomResourceOptions {
  return mergeOptions(opts, { aliases: [{ type: `clusterform:${resourceType}` }], hideDiffs: [...HIDDEN_INPUTS] });
}

/**
 * The inputs the SDK and the provider add to every dynamic resource (sdk/internal/identity.ts, and
 * a derived name's `autoNamed`): the engine stores and diffs them, but they are the provider's own
 * bookkeeping, so `pulumi preview --diff` does not show them (the `hideDiffs` option, which older
 * `@pulumi/pulumi` releases ignore). docs/lifecycle.md says what each one is.
 */
export const HIDDEN_INPUTS = ["__provider", "owner", "resourceName", "resourceUrn", "deleteBeforeReplace", "autoNamed"] as const;

/**
 * The base of every Clusterform resource: a dynamic resource of Pulumi's `pulumi-nodejs` provider,
 * registered with the type token `pulumi.dynamic.Resource` would give
 * (`pulumi-nodejs:dynamic/<module>:<Type>`), but with a `__provider` text this package writes
 * itself (see {@link providerSource}) instead of one serialized from a provider object.
 *
 * State written by releases that serialized a provider object keeps working: Pulumi runs the text
 * stored in state for `read` and `delete`, and that text requires the same entry point and calls
 * its per-method functions, which stay exported. A changed text never causes an update or a
 * replacement: every planner ignores `__provider`.
 */
export abstract class DynamicResource extends CustomResource {
  /**
   * @param resourceType - `<module>:<Type>`, e.g. `"cmassh:NodePool"`.
   * @param props - the resource's inputs and (as `undefined`) its outputs; must not hold `__provider`.
   */
  constructor(resourceType: string, name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    if ("__provider" in props) throw new Error(`${resourceType} "${name}": a dynamic resource must not define the __provider input`);
    super(`pulumi-nodejs:dynamic/${resourceType}`, name, { ...props, __provider: providerSource(PROVIDER_MODULE, resourceType) }, dynamicResourceOptions(resourceType, opts));
  }
}

import type * as pulumi from "@pulumi/pulumi";

/**
 * Builds the provider object that Pulumi serializes into every resource's `__provider`.
 *
 * Pulumi stores the provider as source text in state and sends it with every call, and `read` and
 * `delete` run the text stored by whichever release created the resource (pulumi/pulumi#16826). So the
 * object is deliberately tiny and captures nothing but two strings: each method `require()`s the
 * implementation from the installed package when it runs. Serialization never walks the
 * implementation (gRPC clients and zod schemas do not serialize), the text is a few hundred bytes,
 * and a new release of the implementation does not change it, so upgrades cause no `__provider`
 * churn and no replacements.
 *
 * `require` is never captured by Pulumi's closure serializer, so it stays a runtime lookup; the
 * module is resolved from the dynamic provider's working directory, which is the program's.
 *
 * @param moduleId - stable entry point exporting the `DynamicProviderEntry` functions, e.g.
 *   `"clusterform/provider"`. It must keep resolving in every later release.
 * @param resourceType - the type routed by the entry point, e.g. `"cmassh:Cluster"`.
 */
export function createProviderShim(moduleId: string, resourceType: string): pulumi.dynamic.ResourceProvider {
  // One object per type: Pulumi caches the serialized text per provider object, so a program with
  // fifty pools serializes the pool shim once, not fifty times.
  const key = `${moduleId}\u0000${resourceType}`;
  let shim = shims.get(key);
  if (!shim) {
    shim = buildShim(moduleId, resourceType);
    shims.set(key, shim);
  }
  return shim;
}

const shims = new Map<string, pulumi.dynamic.ResourceProvider>();

function buildShim(moduleId: string, resourceType: string): pulumi.dynamic.ResourceProvider {
  return {
    configure: (req) => require(moduleId).configure(resourceType, req),
    check: (olds, news) => require(moduleId).check(resourceType, olds, news),
    diff: (id, olds, news) => require(moduleId).diff(resourceType, id, olds, news),
    create: (inputs) => require(moduleId).create(resourceType, inputs),
    read: (id, props) => require(moduleId).read(resourceType, id, props),
    update: (id, olds, news) => require(moduleId).update(resourceType, id, olds, news),
    delete: (id, props) => require(moduleId).delete(resourceType, id, props),
  };
}

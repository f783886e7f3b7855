import type * as pulumi from "@pulumi/pulumi";

/**
 * Builds a provider object for `pulumi.dynamic.Resource`, which Pulumi serializes into every
 * resource's `__provider`.
 *
 * Clusterform's own resources no longer use it: they write a one-line `__provider` text themselves
 * (see `providerSource` in ./resource.ts), a fortieth of the 2.6 KB this object serializes to.
 * It stays for packages that build `pulumi.dynamic.Resource` classes this way, and its code stays as
 * it was: stacks created with release 0.1.0 hold its serialized text, which requires
 * `clusterform/provider` and calls its per-method functions.
 *
 * Pulumi stores the provider as source text in state and sends it with every call, and `read` and
 * `delete` run the text stored by whichever release created the resource (pulumi/pulumi#16826). So the
 * object is deliberately small and captures nothing but two strings: each method `require()`s the
 * implementation from the installed package when it runs. Serialization never walks the
 * implementation (gRPC clients and zod schemas do not serialize), and a new release of the
 * implementation does not change the text, so upgrades cause no `__provider` churn.
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

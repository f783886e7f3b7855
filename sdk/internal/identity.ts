import type * as pulumi from "@pulumi/pulumi";
// The modules these functions live in, not the package's index: see sdk/internal/resource.ts.
import { getProject, getStack } from "@pulumi/pulumi/metadata";
import { createUrn, mergeOptions } from "@pulumi/pulumi/resource";
import { ownerMarker } from "../../provider/core/naming";

/** The hidden inputs every Clusterform resource sends. */
export interface IdentityInputs {
  /** The ownership marker, stable for this resource of this stack. */
  owner: string;
  /** The Pulumi resource name, from which the provider derives platform names. */
  resourceName: string;
  /** The effective `deleteBeforeReplace` option: the provider adopts found objects only when it is true. */
  deleteBeforeReplace: boolean;
  /** The resource's URN, so the provider can show progress on the resource's row in the CLI. */
  resourceUrn: pulumi.Output<string>;
}

/**
 * The hidden inputs every resource sends: its ownership marker, its Pulumi name, how its
 * replacements run (see {@link withReplaceDefaults}) and its URN.
 * @param resourceType - the type routed by the provider, e.g. `cmassh:Cluster`.
 */
export function identityInputs(
  resourceName: string,
  resourceType: string,
  opts?: pulumi.CustomResourceOptions,
  deleteFirstByDefault = true,
): IdentityInputs {
  return {
    owner: ownerMarker(getProject(), getStack(), resourceName),
    resourceName,
    deleteBeforeReplace: opts?.deleteBeforeReplace ?? deleteFirstByDefault,
    resourceUrn: createUrn(resourceName, `pulumi-nodejs:dynamic/${resourceType}`, opts?.parent),
  };
}

/**
 * The options every resource registers with: `deleteBeforeReplace` defaults to true (the user's
 * value wins). Platform identities are deterministic so that interrupted creates are adopted, and
 * `pulumi up --replace` derives the same identity again; deleting the old object first is the only
 * order in which a replacement can never be mistaken for an interrupted create. See
 * provider/core/replacement.ts. A kind whose replacements always get a new identity and whose
 * old object the platform refuses to delete while in use (a Senlin profile) passes
 * `deleteFirstByDefault: false`.
 */
export function withReplaceDefaults(
  opts: pulumi.CustomResourceOptions | undefined,
  extra: pulumi.CustomResourceOptions = {},
  deleteFirstByDefault = true,
): pulumi.CustomResourceOptions {
  return mergeOptions(mergeOptions({ deleteBeforeReplace: deleteFirstByDefault }, opts), extra);
}

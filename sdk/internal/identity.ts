import * as pulumi from "@pulumi/pulumi";
import { ownerMarker } from "../../provider/core/naming";

/**
 * The hidden inputs every resource sends: its ownership marker (stable for this resource of this
 * stack) and its Pulumi name, from which the provider derives platform names.
 */
export function identityInputs(resourceName: string): { owner: string; resourceName: string } {
  return { owner: ownerMarker(pulumi.getProject(), pulumi.getStack(), resourceName), resourceName };
}

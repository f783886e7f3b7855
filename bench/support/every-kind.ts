import type { ConfigMap } from "@pulumi/pulumi/automation";
import { ALL_KINDS_PLANE_FLAGS, KINDS } from "../../test/harness/all-kinds";
import type { LocalPlane } from "../../test/harness/local-plane";
import { SENLIN_CONFIG, SENLIN_USER, senlinRest } from "../../test/harness/senlin-stack";
import { CC_PASSWORD } from "../../test/e2e/cyclecloud-support";

/** Every resource kind, in the order `pulumi-nodejs:dynamic/<kind>` sorts (the state-size table's order). */
export const EVERY_KIND = [...KINDS].sort();

/** Flags of a plane that serves `bench/programs/every-kind`: Senlin's Keystone user, CycleCloud's password. */
export const EVERY_KIND_PLANE_FLAGS: readonly string[] = ALL_KINDS_PLANE_FLAGS;

/** Seeds what the `every-kind` program refers to: the Senlin profile `web-profile`. */
export async function seedEveryKind(plane: LocalPlane): Promise<void> {
  await (await senlinRest(plane)).createProfile("web-profile");
}

/** Stack configuration of the `every-kind` program on `plane`: endpoint and credentials (passwords as secrets). */
export function everyKindConfig(plane: LocalPlane, copies = 1): ConfigMap {
  return {
    "clusterform:endpoint": { value: plane.url },
    ...Object.fromEntries(Object.entries(SENLIN_CONFIG).map(([key, value]) => [key, { value }])),
    "clusterform:senlinPassword": { value: SENLIN_USER.password, secret: true },
    "clusterform:cyclecloudUsername": { value: "admin" },
    "clusterform:cyclecloudPassword": { value: CC_PASSWORD, secret: true },
    "test:copies": { value: String(copies) },
  };
}

import { ConnectError, createClient } from "@connectrpc/connect";
import { z } from "zod";
import { VClusterService } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import type { PlatformSeed } from "../platform";
import { SeedError } from "../seed/seed-client";

const vcluster = z.strictObject({
  name: z.string().min(1),
  namespace: z.string().min(1).default("default"),
  kubernetesVersion: z.string().min(1).default("1.29.0"),
  replicas: z.number().int().positive().default(1),
  distro: z.string().min(1).optional(),
  labels: z.record(z.string(), z.string()).default({}),
});
const snapshot = z.strictObject({
  name: z.string().min(1),
  vcluster: z.string().min(1),
  namespace: z.string().min(1).default("default"),
  description: z.string().default(""),
  labels: z.record(z.string(), z.string()).default({}),
});

/** The `vcluster:` section of a seed file. */
export const vclusterSeedSchema = z.strictObject({ vclusters: z.array(vcluster).default([]), snapshots: z.array(snapshot).default([]) });

async function call<T>(where: string, promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw new SeedError(where, `the plane refused it: ${ConnectError.from(error).message}`);
  }
}

/** vcluster seeds: vclusters (phase 1), then snapshots of the running ones (phase 2). */
export const vclusterSeed: PlatformSeed<z.infer<typeof vclusterSeedSchema>> = {
  schema: vclusterSeedSchema,
  phases: [
    async (client, section) => {
      const vc = createClient(VClusterService, client.grpc);
      for (const [i, v] of section.vclusters.entries()) {
        const spec = { kubernetesVersion: v.kubernetesVersion, replicas: v.replicas, ...(v.distro ? { distro: v.distro } : {}) };
        await call(`vcluster.vclusters[${i}] (${v.name})`, vc.createVCluster({ name: v.name, namespace: v.namespace, spec, labels: v.labels }));
      }
    },
    async (client, section) => {
      const vc = createClient(VClusterService, client.grpc);
      for (const [i, s] of section.snapshots.entries()) {
        const request = { name: s.vcluster, namespace: s.namespace, snapshotName: s.name, description: s.description, labels: s.labels };
        await call(`vcluster.snapshots[${i}] (${s.name})`, vc.snapshotVCluster(request));
      }
    },
  ],
};

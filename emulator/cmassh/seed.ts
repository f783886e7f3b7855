import { z } from "zod";
import type { PlatformSeed } from "../platform";
import { expectStatus } from "../seed/seed-client";

const labels = z.record(z.string(), z.string()).default({});
const machines = { instanceType: z.string().min(1).default("standard"), labels };
const pool = z.strictObject({ name: z.string().min(1), count: z.number().int().nonnegative(), ...machines });
const cluster = z.strictObject({
  name: z.string().min(1),
  kubernetesVersion: z.string().regex(/^\d+\.\d+\.\d+$/, "expected x.y.z, e.g. 1.31.6").default("1.31.6"),
  controlPlane: z.strictObject({ count: z.number().int().positive().default(1), ...machines }).default({ count: 1, instanceType: "standard", labels: {} }),
  pools: z.array(pool).default([]),
});

/** The `cmassh:` section of a seed file. */
export const cmasshSeedSchema = z.strictObject({ clusters: z.array(cluster).default([]) });

const asLabels = (map: Record<string, string>) => Object.entries(map).map(([name, value]) => ({ name, value }));

/** cma-ssh seeds: clusters with their pools, each one CreateCluster through the REST gateway. */
export const cmasshSeed: PlatformSeed<z.infer<typeof cmasshSeedSchema>> = {
  schema: cmasshSeedSchema,
  phases: [
    async (client, section) => {
      for (const [i, c] of section.clusters.entries()) {
        const body = {
          name: c.name,
          k8s_version: c.kubernetesVersion,
          control_plane_nodes: { instanceType: c.controlPlane.instanceType, count: c.controlPlane.count, labels: asLabels(c.controlPlane.labels) },
          worker_node_pools: c.pools.map((p) => ({ name: p.name, instanceType: p.instanceType, count: p.count, labels: asLabels(p.labels) })),
        };
        expectStatus(`cmassh.clusters[${i}] (${c.name})`, await client.rest("POST", "/api/v1/cluster", body), 200);
      }
    },
  ],
};

import { z } from "zod";
import type { PlatformSeed } from "../platform";
import { expectStatus } from "../seed/seed-client";

const nodes = z.strictObject({
  cluster: z.string().min(1),
  nodearray: z.string().min(1),
  count: z.number().int().positive(),
  machineType: z.string().min(1).optional(),
});

/**
 * The `cyclecloud:` section of a seed file: cluster definitions (as `--cyclecloud-clusters` takes
 * them, checked by the plane when defined) and nodes already running in them.
 */
export const cyclecloudSeedSchema = z.strictObject({
  /** CycleCloud's own user and password, if the plane was started with others. @default admin / admin */
  auth: z.strictObject({ user: z.string().min(1), password: z.string().min(1) }).default({ user: "admin", password: "admin" }),
  clusters: z.array(z.record(z.string(), z.unknown())).default([]),
  nodes: z.array(nodes).default([]),
});

/** CycleCloud seeds: clusters defined (phase 1), then their nodes created through the REST API (phase 1, after them). */
export const cyclecloudSeed: PlatformSeed<z.infer<typeof cyclecloudSeedSchema>> = {
  schema: cyclecloudSeedSchema,
  phases: [
    async (client, section) => {
      for (const [i, definition] of section.clusters.entries()) {
        expectStatus(`cyclecloud.clusters[${i}]`, await client.rest("POST", "/_local/cyclecloud/clusters", definition), 200);
      }
      const basic = `Basic ${Buffer.from(`${section.auth.user}:${section.auth.password}`).toString("base64")}`;
      for (const [i, n] of section.nodes.entries()) {
        const set = { nodearray: n.nodearray, count: n.count, ...(n.machineType ? { definition: { machineType: n.machineType } } : {}) };
        const reply = await client.rest("POST", `/clusters/${encodeURIComponent(n.cluster)}/nodes/create`, { sets: [set] }, { Authorization: basic });
        expectStatus(`cyclecloud.nodes[${i}]`, reply, 200, 202);
      }
    },
  ],
};

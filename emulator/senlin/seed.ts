import { z } from "zod";
import type { PlatformSeed } from "../platform";
import { expectStatus, type SeedClient } from "../seed/seed-client";

/** At most this many policies per seeded cluster: each is attached in a phase of its own (attaches of one cluster conflict). */
const MAX_POLICIES = 3;

const DEFAULT_PROFILE_SPEC = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros", networks: [{ network: "private" }] } };

const profile = z.strictObject({ name: z.string().min(1), spec: z.record(z.string(), z.unknown()).default(DEFAULT_PROFILE_SPEC), metadata: z.record(z.string(), z.unknown()).optional() });
const policy = z.strictObject({ name: z.string().min(1), spec: z.record(z.string(), z.unknown()) });
const cluster = z.strictObject({
  name: z.string().min(1),
  /** The profile's name (one of `profiles`, or one that exists). */
  profile: z.string().min(1),
  minSize: z.number().int().nonnegative().optional(),
  maxSize: z.number().int().min(-1).optional(),
  desiredCapacity: z.number().int().nonnegative().optional(),
  timeout: z.number().int().positive().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  /** Names of policies to attach, enabled. */
  policies: z.array(z.string().min(1)).max(MAX_POLICIES).default([]),
});
const receiver = z.strictObject({
  name: z.string().min(1),
  type: z.enum(["webhook", "message"]).default("webhook"),
  cluster: z.string().min(1).optional(),
  action: z.string().min(1).optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** The `senlin:` section of a seed file. */
export const senlinSeedSchema = z.strictObject({
  /** The Keystone user the objects belong to. @default admin / admin in project admin */
  auth: z.strictObject({ user: z.string().min(1), password: z.string().min(1), project: z.string().min(1) }).default({ user: "admin", password: "admin", project: "admin" }),
  profiles: z.array(profile).default([]),
  policies: z.array(policy).default([]),
  clusters: z.array(cluster).default([]),
  receivers: z.array(receiver).default([]),
});

type Section = z.infer<typeof senlinSeedSchema>;

async function tokenOf(client: SeedClient, auth: Section["auth"]): Promise<Record<string, string>> {
  const reply = await client.rest("POST", "/v3/auth/tokens", {
    auth: {
      identity: { methods: ["password"], password: { user: { name: auth.user, domain: { name: "Default" }, password: auth.password } } },
      scope: { project: { name: auth.project, domain: { name: "Default" } } },
    },
  });
  expectStatus("senlin.auth", reply, 201);
  return { "X-Auth-Token": reply.headers.get("x-subject-token") ?? "", "OpenStack-API-Version": "clustering 1.14" };
}

const drop = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** Attaches the `n`-th policy of every cluster that has one. */
function attachPolicy(n: number) {
  return async (client: SeedClient, section: Section) => {
    const headers = await tokenOf(client, section.auth);
    for (const [i, c] of section.clusters.entries()) {
      const name = c.policies[n];
      if (name === undefined) continue;
      const reply = await client.rest("POST", `/v1/clusters/${encodeURIComponent(c.name)}/actions`, { policy_attach: { policy_id: name, enabled: true } }, headers);
      expectStatus(`senlin.clusters[${i}].policies[${n}] (${name})`, reply, 202);
    }
  };
}

/**
 * Senlin seeds, through the plane's Senlin API with a Keystone token: profiles, policies and
 * clusters (phase 1), the clusters' first policies and the receivers (phase 2), their second and
 * third policies (phases 3 and 4).
 */
export const senlinSeed: PlatformSeed<Section> = {
  schema: senlinSeedSchema,
  phases: [
    async (client, section) => {
      const headers = await tokenOf(client, section.auth);
      for (const [i, p] of section.profiles.entries()) {
        expectStatus(`senlin.profiles[${i}] (${p.name})`, await client.rest("POST", "/v1/profiles", { profile: drop({ name: p.name, spec: p.spec, metadata: p.metadata }) }, headers), 201);
      }
      for (const [i, p] of section.policies.entries()) {
        expectStatus(`senlin.policies[${i}] (${p.name})`, await client.rest("POST", "/v1/policies", { policy: { name: p.name, spec: p.spec } }, headers), 201);
      }
      for (const [i, c] of section.clusters.entries()) {
        const body = drop({ name: c.name, profile_id: c.profile, min_size: c.minSize, max_size: c.maxSize, desired_capacity: c.desiredCapacity, timeout: c.timeout, metadata: c.metadata, config: c.config });
        expectStatus(`senlin.clusters[${i}] (${c.name})`, await client.rest("POST", "/v1/clusters", { cluster: body }, headers), 202);
      }
    },
    async (client, section) => {
      await attachPolicy(0)(client, section);
      const headers = await tokenOf(client, section.auth);
      for (const [i, r] of section.receivers.entries()) {
        const body = drop({ name: r.name, type: r.type, cluster_id: r.cluster, action: r.action, params: r.params });
        expectStatus(`senlin.receivers[${i}] (${r.name})`, await client.rest("POST", "/v1/receivers", { receiver: body }, headers), 201);
      }
    },
    attachPolicy(1),
    attachPolicy(2),
  ],
};

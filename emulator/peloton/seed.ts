import { ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { z } from "zod";
import { JobService } from "../../proto/gen/peloton/api/v1alpha/job/stateless/svc/stateless_svc_pb";
import { ResourcePoolService } from "../../proto/gen/peloton/api/v1alpha/respool/svc/respool_svc_pb";
import type { PlatformSeed } from "../platform";
import { SeedError } from "../seed/seed-client";
import { ROOT_POOL_ID } from "./respool-store";

const resource = z.strictObject({ kind: z.enum(["cpu", "memory", "disk", "gpu"]), reservation: z.number().nonnegative(), limit: z.number().nonnegative() });
const respool = z.strictObject({
  name: z.string().min(1),
  /** The parent's path, `/` for a top-level pool. */
  parent: z.string().regex(/^\//, "expected a path such as / or /team").default("/"),
  resources: z.array(resource).default([]),
});
const job = z.strictObject({
  name: z.string().min(1),
  /** The pool's path, e.g. /team. */
  respool: z.string().regex(/^\/./, "expected a pool path such as /team"),
  owner: z.string().min(1).default("seed"),
  instanceCount: z.number().int().nonnegative(),
  image: z.string().min(1).default("nginx:1.25"),
  command: z.string().min(1).default("serve"),
  cpuLimit: z.number().positive().default(0.5),
  memLimitMb: z.number().positive().default(128),
});

/** The `peloton:` section of a seed file: resource pools (by path, parents first) and stateless jobs. */
export const pelotonSeedSchema = z.strictObject({ respools: z.array(respool).default([]), jobs: z.array(job).default([]) });

/** The YARPC metadata every call to the job manager carries. */
const YARPC: Readonly<Record<string, string>> = { "rpc-caller": "clusterform-seed", "rpc-service": "peloton-apiserver", "rpc-encoding": "proto" };

async function call<T>(where: string, promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw new SeedError(where, `the plane refused it: ${ConnectError.from(error).message}`);
  }
}

const join = (parent: string, name: string) => (parent === "/" ? `/${name}` : `${parent}/${name}`);

/** Peloton seeds: pools (phase 1), then jobs in them (phase 2), each created as the CLI creates them. */
export const pelotonSeed: PlatformSeed<z.infer<typeof pelotonSeedSchema>> = {
  schema: pelotonSeedSchema,
  phases: [
    async (client, section) => {
      const pools = createClient(ResourcePoolService, transportOf(client.baseUrl));
      const ids = new Map<string, string>([["/", ROOT_POOL_ID]]);
      for (const [i, p] of section.respools.entries()) {
        const where = `peloton.respools[${i}] (${p.name})`;
        const parent = ids.get(p.parent) ?? (await lookup(pools, where, p.parent));
        const reply = await call(where, pools.createResourcePool({ spec: { name: p.name, parent: { value: parent }, resources: p.resources } }));
        ids.set(join(p.parent, p.name), reply.respoolId?.value ?? "");
      }
    },
    async (client, section) => {
      const transport = transportOf(client.baseUrl);
      const pools = createClient(ResourcePoolService, transport);
      const jobs = createClient(JobService, transport);
      for (const [i, j] of section.jobs.entries()) {
        const where = `peloton.jobs[${i}] (${j.name})`;
        const respoolId = await lookup(pools, where, j.respool);
        const container = { name: j.name, resource: { cpuLimit: j.cpuLimit, memLimitMb: j.memLimitMb }, container: { type: 1, docker: { image: j.image } }, command: { value: j.command } };
        const spec = { name: j.name, owner: j.owner, respoolId: { value: respoolId }, instanceCount: j.instanceCount, defaultSpec: { containers: [container] } };
        await call(where, jobs.createJob({ spec }));
      }
    },
  ],
};

function transportOf(baseUrl: string) {
  const yarpc: Interceptor = (next) => (req) => {
    for (const [key, value] of Object.entries(YARPC)) req.header.set(key, value);
    return next(req);
  };
  return createGrpcTransport({ baseUrl, interceptors: [yarpc], defaultTimeoutMs: 30_000 });
}

async function lookup(pools: ReturnType<typeof createClient<typeof ResourcePoolService>>, where: string, path: string): Promise<string> {
  const reply = await call(where, pools.lookupResourcePoolID({ path: { value: path } }));
  const id = reply.respoolId?.value;
  if (!id) throw new SeedError(where, `no resource pool at "${path}"`);
  return id;
}

import { planeWithConfig } from "../testing";
import { fieldTable, NEW_IDENTITY, type Outputs, type Row, type RowContext, STATE_ONLY } from "./testing";

// Peloton: each input field of a resource pool and a stateless job maps to the platform's own
// operation, on the three engines: the exact calls on the pool's or the job's id. The program: the
// pool `compute`, a second pool `other` and a parent pool `upper`, and the job `web` in `compute`
// (or in `other`). In HCL a name is required: there the pools are `compute`, `other` and `upper`,
// the job `web`.

type Props = Record<string, unknown>;

interface Spec {
  pool: Props;
  job: Props;
}

const container = { name: "web", image: "nginx:1.27", resources: { cpu: 0.5, memoryMb: 128 } };

const tofu = (engine: string, name: string) => (engine === "terraform" ? { name } : {});
const id = (o: Outputs, key: string) => String(o[key].id);

/** Fields on top of the pool's spec before. */
const pool = (change: Props) => (s: Spec): Spec => ({ ...s, pool: { ...s.pool, ...change } });
/** Fields on top of the job's spec before. */
const job = (change: Props) => (s: Spec): Spec => ({ ...s, job: { ...s.job, ...change } });

const onPool = ({ before }: RowContext) => [`UpdateResourcePool ${id(before, "compute")}`];
const onJob =
  (call: string) =>
  ({ before }: RowContext) => [`${call} ${id(before, "web")}`];

const rows: Row<Spec>[] = [
  { field: "ResourcePool.name renames in place", resource: "compute", change: pool({ name: "compute-renamed" }), op: "update", calls: onPool },
  {
    field: "ResourcePool.resources changes limits in place",
    resource: "compute",
    change: pool({ resources: [{ kind: "cpu", reservation: 2, limit: 50, share: 2, type: "STATIC" }] }),
    op: "update",
    calls: onPool,
  },
  { field: "ResourcePool.policy is set in place", resource: "compute", change: pool({ policy: "PRIORITY_FIFO" }), op: "update", calls: onPool },
  { field: "ResourcePool.controllerLimit", resource: "compute", change: pool({ controllerLimit: { maxPercent: 50 } }), op: "update", calls: onPool },
  { field: "ResourcePool.slackLimit", resource: "compute", change: pool({ slackLimit: { maxPercent: 30 } }), op: "update", calls: onPool },
  { field: "ResourcePool.owningTeam", resource: "compute", change: pool({ owningTeam: "compute-team" }), op: "update", calls: onPool },
  { field: "ResourcePool.ldapGroups", resource: "compute", change: pool({ ldapGroups: ["infra"] }), op: "update", calls: onPool },
  { field: "ResourcePool.description", resource: "compute", change: pool({ description: "web pool" }), op: "update", calls: onPool },
  { field: "ResourcePool.timeouts changes nothing on the platform", resource: "compute", change: pool({ timeouts: { delete: "2m" } }), op: STATE_ONLY, calls: () => [] },
  { field: "StatelessJob.name is one ReplaceJob", resource: "web", change: job({ name: "web-renamed" }), op: "update", calls: onJob("ReplaceJob") },
  { field: "StatelessJob.instanceCount is one ReplaceJob", resource: "web", change: job({ instanceCount: 3 }), op: "update", calls: onJob("ReplaceJob") },
  {
    field: "StatelessJob.defaultSpec is one ReplaceJob",
    resource: "web",
    change: job({ defaultSpec: { containers: [{ ...container, image: "nginx:1.28", environment: { MODE: "blue" } }] } }),
    op: "update",
    calls: onJob("ReplaceJob"),
  },
  {
    field: "StatelessJob.instanceSpec is one ReplaceJob",
    resource: "web",
    change: job({ instanceSpec: { "0": { containers: [{ ...container, image: "nginx:canary" }] } } }),
    op: "update",
    calls: onJob("ReplaceJob"),
  },
  {
    field: "StatelessJob.sla is one ReplaceJob",
    resource: "web",
    change: job({ sla: { priority: 2, maximumUnavailableInstances: 2 } }),
    op: "update",
    calls: onJob("ReplaceJob"),
  },
  { field: "StatelessJob.labels is one ReplaceJob", resource: "web", change: job({ labels: { tier: "front" } }), op: "update", calls: onJob("ReplaceJob") },
  // The definition key of the job's owner; Pulumi's `owner`, OpenTofu's `job_owner`.
  { field: "StatelessJob.owner is one ReplaceJob", resource: "web", change: job({ jobOwner: "alice" }), op: "update", calls: onJob("ReplaceJob") },
  { field: "StatelessJob.owningTeam is one ReplaceJob", resource: "web", change: job({ owningTeam: "web-team" }), op: "update", calls: onJob("ReplaceJob") },
  { field: "StatelessJob.description is one ReplaceJob", resource: "web", change: job({ description: "frontend" }), op: "update", calls: onJob("ReplaceJob") },
  { field: "StatelessJob.updatePolicy changes nothing on the platform", resource: "web", change: job({ updatePolicy: { batchSize: 1 } }), op: STATE_ONLY, calls: () => [] },
  { field: "StatelessJob.timeouts changes nothing on the platform", resource: "web", change: job({ timeouts: { update: "10m" } }), op: STATE_ONLY, calls: () => [] },
  { field: "StatelessJob.restartNonce is one RestartJob", resource: "web", change: job({ restartNonce: "1" }), op: "update", calls: onJob("RestartJob") },
  { field: "StatelessJob.desiredState KILLED is StopJob", resource: "web", change: job({ desiredState: "KILLED" }), op: "update", calls: onJob("StopJob") },
  { field: "StatelessJob.desiredState RUNNING is StartJob", resource: "web", change: job({ desiredState: "RUNNING" }), op: "update", calls: onJob("StartJob") },
  {
    field: "StatelessJob.respoolId replaces: the job is stopped, deleted and created in the other pool (the native plugin creates first: the job id changes)",
    resource: "web",
    change: job({ pool: "other" }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: ({ before, after }) => ({ delete: [`StopJob ${id(before, "web")}`, `DeleteJob ${id(before, "web")}`], create: [`CreateJob ${id(after, "web")}`] }),
  },
  {
    field: "ResourcePool.parent replaces the pool, deleting the old one first (the native plugin creates first: the pool id changes)",
    resource: "compute",
    change: pool({ parent: "upper" }),
    op: "replace",
    order: NEW_IDENTITY,
    calls: ({ before, after }) => ({ delete: [`DeleteResourcePool ${id(before, "compute")}`], create: [`CreateResourcePool ${id(after, "compute")}`] }),
  },
];

fieldTable<Spec>({
  title: "Peloton: each input field maps to the platform's own operation",
  api: "peloton",
  base: (engine) => ({
    pool: { resources: [{ kind: "cpu", reservation: 4, limit: 100 }], ...tofu(engine, "compute") },
    job: { instanceCount: 2, defaultSpec: { containers: [container] }, updatePolicy: { batchSize: 2 }, ...tofu(engine, "web") },
  }),
  resources: [
    { key: "upper", type: "peloton:ResourcePool", program: (_s, _o, engine) => ({ inputs: { description: "a parent pool", ...tofu(engine, "upper") } }) },
    { key: "other", type: "peloton:ResourcePool", program: (_s, _o, engine) => ({ inputs: { description: "second pool", ...tofu(engine, "other") } }) },
    {
      key: "compute",
      type: "peloton:ResourcePool",
      program: ({ pool: { parent, ...spec } }, o) => ({ inputs: { ...spec, ...(parent === "upper" ? { parent: id(o, "upper") } : {}) } }),
    },
    {
      key: "web",
      type: "peloton:StatelessJob",
      program: ({ job: { pool: where, ...spec } }, o) => ({ inputs: { respoolId: id(o, where === "other" ? "other" : "compute"), ...spec } }),
    },
  ],
  rows,
  plane: () => planeWithConfig({ timeScale: 0 }),
});

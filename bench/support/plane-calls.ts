import { toJsonString } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { pelotonClients, jobSpec, poolSpec } from "../../emulator/peloton/testing";
import { Cluster, GetClusterReplySchema } from "../../proto/gen/cmassh/api_pb";
import { VClusterService } from "../../proto/gen/vcluster/api/v1/vcluster_api_pb";
import { fetchExpecting } from "./load";

/** One kind of call the load benchmark drives: a read or a write of one API. */
export interface LoadCase {
  api: string;
  kind: "read" | "write";
  /** The operation as the audit log names it. */
  operation: string;
  /** Sends request number `n` from worker `worker`; throws when the plane does not answer as expected. */
  send(n: number, worker: number): Promise<unknown>;
}

/** Objects every platform's calls work on, created before the load starts. */
export interface LoadTargets {
  cases: LoadCase[];
  /** A representative REST read's answer size, bytes: the JSON baseline answers this many. */
  restReplyBytes: number;
  /** The cma-ssh GetCluster reply as proto JSON: the gRPC baseline answers it. */
  getClusterReplyJson: string;
}

const BASIC = `Basic ${Buffer.from("admin:admin").toString("base64")}`;

/** A project-scoped token of the plane's `admin` user, from the local Keystone. */
export async function keystoneToken(url: string): Promise<string> {
  const response = await fetch(`${url}/v3/auth/tokens`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      auth: {
        identity: { methods: ["password"], password: { user: { name: "admin", domain: { name: "Default" }, password: "admin" } } },
        scope: { project: { name: "admin", domain: { name: "Default" } } },
      },
    }),
  });
  if (response.status !== 201) throw new Error(`Keystone token request failed: HTTP ${response.status}: ${await response.text()}`);
  return response.headers.get("x-subject-token") ?? "";
}

/** Creates `count` Senlin clusters (one per worker: an update is refused while another runs on the cluster) and waits until each is ACTIVE. */
export async function senlinClusters(url: string, headers: Record<string, string>, count: number): Promise<string[]> {
  const spec = { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } };
  const profile = JSON.parse(await fetchExpecting(`${url}/v1/profiles`, 201, { method: "POST", headers, body: JSON.stringify({ profile: { name: "load", spec } }) }));
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({ cluster: { name: `load-${i}`, profile_id: profile.profile.id, desired_capacity: 0 } });
    ids.push(JSON.parse(await fetchExpecting(`${url}/v1/clusters`, 202, { method: "POST", headers, body })).cluster.id);
  }
  for (const id of ids) {
    for (let attempt = 0; ; attempt++) {
      const status = JSON.parse(await fetchExpecting(`${url}/v1/clusters/${id}`, 200, { headers })).cluster.status;
      if (status === "ACTIVE") break;
      if (attempt > 100) throw new Error(`Senlin cluster ${id} is ${status}, not ACTIVE, after 100 reads`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return ids;
}

/**
 * Creates the objects (a cma-ssh cluster with a pool, a Peloton pool and job, a vcluster, one
 * Senlin cluster per worker) and answers the calls to drive: a read and a repeatable write of each
 * API. The plane must run at time scale 0, so every write's operation ends at once.
 */
export async function prepareLoad(url: string, workers: number): Promise<LoadTargets> {
  const transport = createGrpcTransport({ baseUrl: url });
  const cmassh = createClient(Cluster, transport);
  await cmassh.createCluster({ name: "load", workerNodePools: [{ name: "pool", instanceType: "standard", count: 1 }] });
  const peloton = pelotonClients(url);
  const { respoolId } = await peloton.respools.createResourcePool({ spec: poolSpec("load", 16, 16384) });
  const { jobId } = await peloton.jobs.createJob({ spec: jobSpec("load", respoolId?.value ?? "", 2) });
  const vc = createClient(VClusterService, transport);
  const vcluster = { name: "load", namespace: "bench" };
  await vc.createVCluster(vcluster);
  const senlin = { "content-type": "application/json", "x-auth-token": await keystoneToken(url) };
  const senlinIds = await senlinClusters(url, senlin, workers);
  const cyclecloud = { authorization: BASIC };
  const getCluster = await cmassh.getCluster({ name: "load" });
  const restReply = await fetchExpecting(`${url}/v1/clusters/${senlinIds[0]}`, 200, { headers: senlin });
  const cases: LoadCase[] = [
    { api: "cmassh", kind: "read", operation: "GetCluster", send: () => cmassh.getCluster({ name: "load" }) },
    {
      api: "cmassh",
      kind: "write",
      operation: "ScaleNodePool",
      send: (n) => cmassh.scaleNodePool({ clusterName: "load", nodePools: [{ name: "pool", count: 1 + (n % 3) }] }),
    },
    { api: "peloton", kind: "read", operation: "GetJob", send: () => peloton.jobs.getJob({ jobId }) },
    {
      api: "peloton",
      kind: "write",
      operation: "UpdateResourcePool",
      send: (n) => peloton.respools.updateResourcePool({ respoolId, spec: poolSpec("load", 16 + (n % 4), 16384) }),
    },
    { api: "vcluster", kind: "read", operation: "GetVCluster", send: () => vc.getVCluster(vcluster) },
    { api: "vcluster", kind: "write", operation: "UpdateVCluster", send: (n) => vc.updateVCluster({ ...vcluster, labels: { rev: String(n) } }) },
    ...senlinCases(url, senlin, senlinIds),
    { api: "cyclecloud", kind: "read", operation: "GetClusterStatus", send: () => fetchExpecting(`${url}/clusters/demo/status`, 200, { headers: cyclecloud }) },
    {
      api: "cyclecloud",
      kind: "write",
      operation: "ScaleNodearray",
      // A total the nodearray already holds: the plane records an operation and adds no node.
      send: () => fetchExpecting(`${url}/clusters/demo/scale/execute?totalNodeCount=0`, 202, { method: "POST", headers: cyclecloud }),
    },
  ];
  return { cases, restReplyBytes: Buffer.byteLength(restReply), getClusterReplyJson: toJsonString(GetClusterReplySchema, getCluster) };
}

/**
 * The Senlin read and write of the load benchmark: GET and PATCH (metadata) of worker `w`'s own
 * cluster; each PATCH records a CLUSTER_UPDATE action.
 */
export function senlinCases(url: string, headers: Record<string, string>, clusterIds: readonly string[]): LoadCase[] {
  return [
    { api: "senlin", kind: "read", operation: "GetCluster", send: (_n, w) => fetchExpecting(`${url}/v1/clusters/${clusterIds[w]}`, 200, { headers }) },
    {
      api: "senlin",
      kind: "write",
      operation: "UpdateCluster",
      send: async (n, w) => {
        const body = JSON.stringify({ cluster: { metadata: { rev: String(n) } } });
        return fetchExpecting(`${url}/v1/clusters/${clusterIds[w]}`, 202, { method: "PATCH", headers, body });
      },
    },
  ];
}

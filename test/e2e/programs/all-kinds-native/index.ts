// The all-kinds program (test/e2e/programs/all-kinds) as users write it for the native plugin: the
// `clusterform/native` classes of the packed package, in TypeScript, with the same resources and
// the same rounds. `test:round` moves every resource to its next state at once: round 0 creates,
// rounds 1 and 2 each change one in-place field of each kind (the snapshot has none, so its
// description change is a replacement).
import * as pulumi from "@pulumi/pulumi";
import { cmassh, cyclecloud, peloton, senlin, vcluster } from "clusterform/native";

const config = new pulumi.Config("test");
const round = Math.min(config.getNumber("round") ?? 0, 2);
const pick = <T>(values: [T, T, T]): T => values[round];

const cluster = new cmassh.Cluster("cluster", {
  kubernetesVersion: pick(["1.30.10", "1.31.6", "1.32.3"]),
  controlPlane: { instanceType: "standard", count: 1 },
});
new cmassh.NodePool("pool-0", { clusterName: cluster.name, instanceType: "standard", count: pick([1, 2, 3]) });

const respool = new peloton.ResourcePool("respool", {
  resources: [
    { kind: "cpu", reservation: 4, limit: pick([100, 120, 140]) },
    { kind: "memory", reservation: 1024, limit: 102400 },
  ],
});
new peloton.StatelessJob("job-0", {
  respoolId: respool.id,
  instanceCount: 2,
  defaultSpec: { containers: [{ name: "web", image: pick(["nginx:1.27", "nginx:1.28", "nginx:1.29"]), resources: { cpu: 0.5, memoryMb: 128 } }] },
  updatePolicy: { batchSize: 1 },
});

const vc = new vcluster.VCluster("vc", { namespace: "matrix", replicas: pick([1, 2, 3]) });
new vcluster.Snapshot("snap", { vclusterName: vc.name, namespace: vc.namespace, description: `round ${round}` });

const profile = new senlin.Profile("profile", {
  spec: { type: "os.nova.server", version: "1.0", properties: { flavor: "m1.small", image: "cirros" } },
  metadata: { round: `r${round}` },
});
// Policies keep no metadata: Senlin tells an interrupted create's policy by its name and spec, so
// the name carries the stack. Round 0 derives it.
const policy = new senlin.Policy("policy", {
  spec: { type: "senlin.policy.deletion", version: "1.0", properties: { criteria: "OLDEST_FIRST" } },
  name: round === 0 ? undefined : `deletion-r${round}-${pulumi.getStack()}`,
});
new senlin.Cluster("senlin", { profile: profile.id, policies: [{ policy: policy.id }], minSize: 0, maxSize: 5, desiredCapacity: pick([1, 2, 3]) });

new cyclecloud.NodePool("cc", { clusterName: "demo", nodearray: "execute", count: pick([1, 2, 3]) });

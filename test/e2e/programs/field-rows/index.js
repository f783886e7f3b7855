"use strict";
// The field tables' objects, one of each platform, on the real Pulumi engine: `test:<platform>` is
// that platform's spec (JSON), so one up changes a field of every platform at once.
// Pulumi's modules, not its index (docs/testing.md: the index costs a program process 0.2-0.3 CPU s).
const { Config } = require("@pulumi/pulumi/config");
const { cmassh, cyclecloud, senlin, peloton, vcluster } = require("clusterform");

const config = new Config("test");
const spec = (key) => JSON.parse(config.require(key));
// `undefined` leaves the option to the SDK's default.
const order = (value) => (value === undefined ? {} : { deleteBeforeReplace: value });

const cm = spec("cmassh");
const main = new cmassh.Cluster("main", { kubernetesVersion: "1.30.10", controlPlane: { instanceType: "standard", count: 1 } });
const { deleteBeforeReplace: poolOrder, ...poolArgs } = cm.pool;
const pool = new cmassh.NodePool("p", { clusterName: main.name, ...poolArgs }, order(poolOrder));

const { deleteBeforeReplace: ccOrder, ...ccArgs } = spec("cyclecloud");
const nodes = new cyclecloud.NodePool("nodes", { clusterName: "demo", nodearray: "execute", ...ccArgs }, order(ccOrder));

const web = new senlin.Cluster("web", spec("senlin"));

const pel = spec("peloton");
const compute = new peloton.ResourcePool("compute", pel.pool);
const job = new peloton.StatelessJob("job", { respoolId: compute.id, ...pel.job });

const vc = spec("vcluster");
const ft = new vcluster.VCluster("ft", vc.vc);
const snap = new vcluster.Snapshot("snap", { vclusterName: ft.name, namespace: vc.vc.namespace, ...vc.snapshot });

exports.cmasshCluster = main.name;
exports.cmasshPool = pool.name;
exports.nodeNames = nodes.nodeNames;
exports.senlinId = web.id;
exports.poolId = compute.id;
exports.jobId = job.jobId;
exports.snapshotId = snap.snapshotId;

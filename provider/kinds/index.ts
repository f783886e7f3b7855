import { registerHandler } from "../registry";

// Each platform's code loads only when a resource of it is used.
registerHandler("cmassh:Cluster", () => require("./cmassh/cluster").clusterHandler);
registerHandler("cmassh:NodePool", () => require("./cmassh/node-pool").nodePoolHandler);
registerHandler("peloton:ResourcePool", () => require("./peloton/resource-pool").resourcePoolHandler);
registerHandler("peloton:StatelessJob", () => require("./peloton/stateless-job").statelessJobHandler);
registerHandler("vcluster:VCluster", () => require("./vcluster/vcluster").vclusterHandler);
registerHandler("vcluster:Snapshot", () => require("./vcluster/snapshot").snapshotHandler);
registerHandler("senlin:Cluster", () => require("./senlin/cluster").clusterHandler);
registerHandler("senlin:Profile", () => require("./senlin/profile").profileHandler);
registerHandler("senlin:Policy", () => require("./senlin/policy").policyHandler);
registerHandler("cyclecloud:NodePool", () => require("./cyclecloud/node-pool").nodePoolHandler);

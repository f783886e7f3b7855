import { registerHandler } from "../../registry";
import { clusterHandler as cmasshCluster } from "../../kinds/cmassh/cluster";
import { nodePoolHandler as cmasshNodePool } from "../../kinds/cmassh/node-pool";
import { nodePoolHandler as cyclecloudNodePool } from "../../kinds/cyclecloud/node-pool";
import { resourcePoolHandler } from "../../kinds/peloton/resource-pool";
import { statelessJobHandler } from "../../kinds/peloton/stateless-job";
import { clusterHandler as senlinCluster } from "../../kinds/senlin/cluster";
import { policyHandler } from "../../kinds/senlin/policy";
import { profileHandler } from "../../kinds/senlin/profile";
import { snapshotHandler } from "../../kinds/vcluster/snapshot";
import { vclusterHandler } from "../../kinds/vcluster/vcluster";

// Test helpers of provider/cli/plan (not built into the package).

/**
 * Registers every kind's handler from its module. The registry loads handlers lazily with
 * `require` (provider/kinds/index.ts), which cannot load the TypeScript sources tests run
 * under vitest; a native replacement's order reads the kind's identity from its handler
 * (replace-order.ts). Call once, after the imports, in a test that plans native replacements.
 */
export function registerHandlersFromSources(): void {
  const handlers = {
    "cmassh:Cluster": cmasshCluster,
    "cmassh:NodePool": cmasshNodePool,
    "cyclecloud:NodePool": cyclecloudNodePool,
    "peloton:ResourcePool": resourcePoolHandler,
    "peloton:StatelessJob": statelessJobHandler,
    "senlin:Cluster": senlinCluster,
    "senlin:Profile": profileHandler,
    "senlin:Policy": policyHandler,
    "vcluster:VCluster": vclusterHandler,
    "vcluster:Snapshot": snapshotHandler,
  };
  for (const [type, handler] of Object.entries(handlers)) registerHandler(type, () => handler);
}

import { cmasshModule } from "./cmassh/module";
import { cyclecloudModule } from "./cyclecloud/module";
import { keystoneModule } from "./keystone/module";
import { pelotonModule } from "./peloton/module";
import type { PlatformModule } from "./platform";
import { senlinModule } from "./senlin/module";
import { vclusterModule } from "./vcluster/module";

/** Every platform the local control plane serves, mounted in this order. Add a platform here. */
export const PLATFORMS: readonly PlatformModule[] = [cmasshModule, cyclecloudModule, keystoneModule, pelotonModule, senlinModule, vclusterModule];

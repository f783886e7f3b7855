import { cmasshModule } from "./cmassh/module";
import type { PlatformModule } from "./platform";

/** Every platform the local control plane serves, mounted in this order. Add a platform here. */
export const PLATFORMS: readonly PlatformModule[] = [cmasshModule];

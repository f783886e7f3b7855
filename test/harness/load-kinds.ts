import { beforeAll } from "vitest";
import { loadKinds } from "../../provider/cli/plan/planners";

// Every e2e file may read a step's operations plan (planned.ts), which needs every kind loaded.
beforeAll(async () => {
  await loadKinds();
});

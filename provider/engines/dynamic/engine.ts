import type { EngineTraits } from "../../core/engine";

/** Pulumi running Clusterform's dynamic resources (the `pulumi-nodejs` provider host). */
export const DYNAMIC_ENGINE: EngineTraits = {
  // The SDK sends the resource option `deleteBeforeReplace` (default true) as a hidden input.
  replaceOrder: "program",
  deletesAfterDiffs: true,
  recordsStateAtEnd: false,
  // A stack may hold native resources too, served by the plugin's process in the same run.
  sharedRun: true,
  recreateAdvice: "replace it deleting first (the resource option deleteBeforeReplace: true with `pulumi up --replace`)",
  names: "pulumi",
};

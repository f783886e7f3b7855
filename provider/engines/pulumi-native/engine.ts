import type { EngineTraits } from "../../core/engine";

/** Pulumi running the native plugin `pulumi-resource-clusterform` (every language). */
export const NATIVE_ENGINE: EngineTraits = {
  // The plugin's Diff answers the order: create-first when the new object gets another identity.
  replaceOrder: "provider",
  deletesAfterDiffs: true,
  recordsStateAtEnd: false,
  // A TypeScript stack may hold dynamic resources too, served by another process in the same run.
  sharedRun: true,
  recreateAdvice: "replace it deleting first (the resource option deleteBeforeReplace: true with `pulumi up --replace`)",
  names: "pulumi",
};

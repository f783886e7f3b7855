import type { EngineTraits } from "../../core/engine";

/** OpenTofu (and Terraform) over the plugin protocol v6. */
export const TERRAFORM_ENGINE: EngineTraits = {
  // `create_before_destroy` is the configuration's; the provider is never told it.
  replaceOrder: "engine",
  // tofu deletes as its graph allows, and plans in another provider process than it applies.
  deletesAfterDiffs: false,
  recordsStateAtEnd: true,
  // One provider process serves all of an apply.
  sharedRun: false,
  recreateAdvice: "replace it deleting first (OpenTofu: without lifecycle { create_before_destroy = true })",
  names: "terraform",
};

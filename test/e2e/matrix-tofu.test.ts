import { engineRows } from "../harness/matrix-engine";

// The reliability matrix's engine-specific rows on OpenTofu (terraform-provider-clusterform): the
// configuration test/e2e/programs/all-kinds-hcl. What each row tries and asserts:
// test/harness/matrix-fault-rows.ts and matrix-kill-rows.ts; the table: test/README.md.
engineRows("tofu");

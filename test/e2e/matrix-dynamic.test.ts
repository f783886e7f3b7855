import { engineRows } from "../harness/matrix-engine";

// The reliability matrix's engine-specific rows on Pulumi with the dynamic providers: the program
// test/e2e/programs/all-kinds (the `clusterform` classes). What each row tries and asserts:
// test/harness/matrix-fault-rows.ts and matrix-kill-rows.ts; the table: test/README.md.
engineRows("dynamic");

import { engineRows } from "../harness/matrix-engine";

// The reliability matrix's engine-specific rows on Pulumi with the native plugin
// (pulumi-resource-clusterform): the TypeScript program test/e2e/programs/all-kinds-native (the
// `clusterform/native` classes). What each row tries and asserts: test/harness/matrix-fault-rows.ts
// and matrix-kill-rows.ts; the table: test/README.md.
engineRows("native");

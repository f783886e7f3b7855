import { describePulumiUpgrades } from "../harness/upgrade-pulumi";

// Upgrade safety of the native plugin: each directory under test/fixtures/upgrade-native holds a
// Pulumi YAML stack as a release left it (scripts/write-upgrade-fixture.sh --engine native). The
// current package's plugin takes it over in a fresh backend, against a plane seeded with the same
// objects: preview plans nothing and calls no platform, refresh changes nothing, destroy removes
// every object (test/harness/upgrade-pulumi.ts).
describePulumiUpgrades("native");

import { describePulumiUpgrades } from "../harness/upgrade-pulumi";

// Upgrade safety of the dynamic provider: each directory under test/fixtures/upgrade holds a stack as
// a release left it (scripts/write-upgrade-fixture.sh). The current package takes it over in a fresh
// backend, against a plane seeded with the same objects: preview plans nothing and calls no platform,
// refresh changes nothing, destroy removes every object (test/harness/upgrade-pulumi.ts).
describePulumiUpgrades("dynamic");

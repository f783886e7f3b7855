#!/usr/bin/env bash
# Writes the upgrade-safety fixture of this release for one engine, test/fixtures/upgrade*/<version>/ (see
# test/README.md). Usage: bash scripts/write-upgrade-fixture.sh [--force] [--engine dynamic|native|tofu] [version]
# version defaults to package.json's; --force overwrites an existing fixture directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ -z "${CLUSTERFORM_PULUMI_BIN:-}" ]; then
  # shellcheck source=scripts/setup.sh
  . scripts/setup.sh
fi
npm run -s build
node scripts/write-upgrade-fixture.mjs "$@"

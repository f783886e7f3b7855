#!/usr/bin/env bash
# The test command: set-up (Node, dependencies, build, Pulumi CLI), then unit tests
# and end-to-end tests through the real engines with the typecheck, lint and layer check beside them.
# Ends with one "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
. scripts/setup.sh

mkdir -p .work
# The set-up has just built the package: the e2e global setup packs it without building it again.
export CLUSTERFORM_BUILT=1
# Every Node process of the run (engine programs, dynamic providers, the plugin, planes, the tofu
# provider) keeps the V8 code it compiled for a module here, and the next process loading that module
# reuses it instead of compiling it again: a Pulumi program spends half its CPU compiling modules.
export NODE_COMPILE_CACHE="$PWD/.work/node-compile-cache"
# The static checks (typecheck, lint, the layer check) run beside the tests, not before them: the
# tests spend part of their time waiting on the plane's operations, and the checks fill it. A failed
# check is printed as soon as it ends and fails the command; the tests carry on to their end.
echo "[test] typecheck, lint and layers (docs/design.md), beside the tests"
rm -f .work/checks.log
# `|| return 1` after each: set -e does not stop a function called in an `if`.
checks() {
  { echo "[test] typecheck"; npx tsc -p tsconfig.json --noEmit; } >> .work/checks.log 2>&1 || return 1
  { echo "[test] lint"; npx biome lint --error-on-warnings .; } >> .work/checks.log 2>&1 || return 1
  { echo "[test] layers"; npm run --silent lint:layers; } >> .work/checks.log 2>&1 || return 1
}
{ if checks; then echo "[test] checks passed"; else echo "[test] CHECKS FAILED:"; cat .work/checks.log; exit 1; fi; } &
checks_pid=$!
echo "[test] unit and end-to-end tests"
status=0
rm -f .work/vitest-results.json
npx vitest run --reporter=default --reporter=json --outputFile.json=.work/vitest-results.json "$@" || status=$?
wait "$checks_pid" || { echo "[test] the checks failed (their output is above, and in .work/checks.log)"; [ "$status" -ne 0 ] || status=1; }
# The reliability matrix of this run, written to .work/reliability-matrix.md (a build output; the
# committed copy in test/README.md is refreshed on purpose with npm run matrix:refresh), from the
# matrix suites this run covered (none: left as it was). Its own failure fails the command too, without replacing vitest's exit status.
if [ -f .work/vitest-results.json ]; then
  node scripts/matrix-table.mjs .work/vitest-results.json .work/reliability-matrix.md || { [ "$status" -ne 0 ] || status=1; }
fi
node -e '
  const r = require("./.work/vitest-results.json");
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' || status=1
exit "$status"

#!/usr/bin/env bash
# Plans an OpenTofu (or Terraform) configuration and writes Clusterform's operations plan as
# Markdown, ready to post as a pull-request comment; any CI system can run it.
#
#   examples/ci/plan-tofu.sh [out.md] [-- TOFU-PLAN-ARGS]
#
# Run it in the configuration's folder after `tofu init`, with the provider's endpoints and
# credentials set as for any `tofu plan`.
#   TOFU                 the tofu (or terraform) binary (default: tofu)
#   CLUSTERFORM_BIN      the command to run (default: npx --no-install clusterform)
#   PLAN_FILE            where the saved plan goes (default: a temporary file); keep it to apply
#                        exactly what was reviewed: `tofu apply "$PLAN_FILE"`
#   PLAN_JSON            also keep `tofu show -json` of it there (e.g. as a CI artifact)
# Exits with `clusterform plan`'s code: 0 no changes, 2 changes, 3 disruptive changes, 1 error.
set -uo pipefail

out="${1:-clusterform-plan.md}"
shift || true
if [[ "${1:-}" == "--" ]]; then shift; fi
tofu="${TOFU:-tofu}"
read -r -a clusterform <<< "${CLUSTERFORM_BIN:-npx --no-install clusterform}"
plan="${PLAN_FILE:-$(mktemp)}"
shown="$(mktemp)"
trap 'rm -f "$shown"; if [[ -z "${PLAN_FILE:-}" ]]; then rm -f "$plan"; fi' EXIT

# A plan that fails writes no file: its errors are tofu's own output, and the script exits 1.
"$tofu" plan -input=false -no-color -out "$plan" "$@" >&2 || exit 1
"$tofu" show -json "$plan" > "$shown" || exit 1
if [[ -n "${PLAN_JSON:-}" ]]; then cp "$shown" "$PLAN_JSON"; fi

"${clusterform[@]}" plan --format markdown "$shown" > "$out"
code=$?
cat "$out"
exit "$code"

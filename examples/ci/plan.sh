#!/usr/bin/env bash
# Previews a Pulumi stack and writes Clusterform's operations plan as Markdown, ready to post as a
# pull-request comment; any CI system can run it.
#
#   examples/ci/plan.sh <stack> [out.md]
#
# Run it in the program's folder, after `npm ci` (clusterform among the dependencies) and with the
# stack's backend and secrets set up as for any `pulumi preview`.
#   CLUSTERFORM_BIN      the command to run (default: npx --no-install clusterform)
#   PREVIEW_JSON         also keep the raw `pulumi preview --json` there (e.g. as a CI artifact)
# Exits with `clusterform plan`'s code: 0 no changes, 2 changes, 3 disruptive changes, 1 error
# (the preview failed; its errors are in the Markdown).
set -uo pipefail

stack="${1:?usage: plan.sh <stack> [out.md]}"
out="${2:-clusterform-plan.md}"
read -r -a clusterform <<< "${CLUSTERFORM_BIN:-npx --no-install clusterform}"
preview="$(mktemp)"
trap 'rm -f "$preview"' EXIT

# A failed preview still prints its JSON (with the errors); `clusterform plan` reports them.
pulumi preview --stack "$stack" --json --non-interactive > "$preview"
if [[ -n "${PREVIEW_JSON:-}" ]]; then cp "$preview" "$PREVIEW_JSON"; fi

"${clusterform[@]}" plan --format markdown "$preview" > "$out"
code=$?
cat "$out"
exit "$code"

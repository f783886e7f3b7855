#!/usr/bin/env bash
# The pull-request plan against clusterform-local, as examples/ci/github-actions.yml runs it (any CI
# system can run it too): starts a fresh local control plane, waits until it answers, builds the
# base branch's state on it (`pulumi up` of the base program), then previews the pull request's
# program against that state and writes Clusterform's operations plan as Markdown (plan.sh).
#
#   plan-local.sh <base-program-dir> <head-program-dir> [stack] [out.md]
#
# Both folders hold the same Pulumi project, with dependencies installed (`npm ci`, clusterform among
# them). The stack (default `ci`) is selected, or created, in the backend PULUMI_BACKEND_URL names
# (e.g. file://$PWD/.pulumi-state, shared by both folders), with PULUMI_CONFIG_PASSPHRASE set.
# Both programs reach the plane through the environment variable CLUSTERFORM_ENDPOINT, so neither
# needs stack config for it; endpoints the stack's config sets itself (`clusterform:endpoint`,
# `clusterform:<platform>Endpoint`) win over it, so leave them out of this stack's config.
#   CLUSTERFORM_LOCAL_PORT   the plane's port (default 9020)
#   CLUSTERFORM_LOCAL_ARGS   more arguments for clusterform-local (e.g. `--time-scale 0.1`)
#   CLUSTERFORM_BIN          passed on to plan.sh
# Exits with plan.sh's code: 0 no changes, 2 changes, 3 disruptive changes, 1 error (also when the
# plane does not start or the base state cannot be built; the reason is in the Markdown).
set -uo pipefail

usage="usage: plan-local.sh <base-program-dir> <head-program-dir> [stack] [out.md]"
base="$(cd "${1:?$usage}" && pwd)" || exit 1
head="$(cd "${2:?$usage}" && pwd)" || exit 1
stack="${3:-ci}"
out="${4:-clusterform-plan.md}"
[[ "$out" == /* ]] || out="$PWD/$out"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
port="${CLUSTERFORM_LOCAL_PORT:-9020}"
read -r -a extra <<< "${CLUSTERFORM_LOCAL_ARGS:-}"

# Writes an error as the plan's Markdown and exits 1.
fail() {
  printf '### Clusterform plan\n\n> **Error:** %s\n' "$1" > "$out"
  cat "$out"
  exit 1
}

# The head program's clusterform, run with node directly so that its process id is the plane's.
package="$(cd "$head" && node -p 'require("path").dirname(require.resolve("clusterform/package.json"))')" ||
  fail "clusterform is not installed in $head (run \`npm ci\` there first)"
data="$(mktemp -d)"
node "$package/dist/emulator/cli.js" --port "$port" --data "$data/state" "${extra[@]}" > "$data/plane.log" 2>&1 &
plane=$!
trap 'kill "$plane" 2>/dev/null; wait "$plane" 2>/dev/null; rm -rf "$data"' EXIT
export CLUSTERFORM_ENDPOINT="http://127.0.0.1:$port"

# Wait until the plane answers (its health check), for at most a minute.
answered=""
for _ in $(seq 1 120); do
  if node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$CLUSTERFORM_ENDPOINT/_local/health"; then
    answered=1
    break
  fi
  kill -0 "$plane" 2>/dev/null || fail "clusterform-local exited before answering: $(tail -n 5 "$data/plane.log")"
  sleep 0.5
done
[[ -n "$answered" ]] || fail "clusterform-local did not answer on $CLUSTERFORM_ENDPOINT within a minute: $(tail -n 5 "$data/plane.log")"

# The base branch's state.
(cd "$base" && pulumi stack select --create "$stack" --non-interactive && pulumi up --stack "$stack" --yes --non-interactive --skip-preview) >&2 ||
  fail "\`pulumi up\` of the base branch's program failed on clusterform-local (its output is in the job's log)"

# The pull request's plan against it.
(cd "$head" && bash "$here/plan.sh" "$stack" "$out")

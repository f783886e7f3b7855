#!/usr/bin/env bash
# The demo: set-up, then the local control plane, then a real `pulumi up` of the quickstart program
# (Pulumi.yaml at the repository root, program in examples/quickstart), against a local file backend.
#
#   bash scripts/demo.sh            # up, show the outputs, leave everything running
#   bash scripts/demo.sh --destroy  # and destroy the stack afterwards
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
. scripts/setup.sh

root="$PWD"
demo="$root/.work/demo"
mkdir -p "$demo/backend" "$demo/home" "$demo/data"
export PULUMI_HOME="$demo/home" PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-clusterform-demo}"
export PULUMI_BACKEND_URL="file://$demo/backend"

echo "[demo] installing the package into examples/quickstart (packed, as users install it)"
rm -f "$demo"/clusterform-*.tgz
packed="$(npm pack --silent --pack-destination "$demo" | tail -n 1)"
mv "$demo/$packed" "$demo/clusterform.tgz"
# A new tarball has a new integrity hash: drop the old copy and lock so npm installs this one.
(cd examples/quickstart && rm -rf node_modules/clusterform package-lock.json &&
  npm install --no-audit --no-fund --loglevel=error)

port="${CLUSTERFORM_DEMO_PORT:-9020}"
echo "[demo] starting the local control plane (clusterform-local) on port $port"
node dist/emulator/cli.js --port "$port" --data "$demo/data" >"$demo/local.log" 2>&1 &
local_pid=$!
trap 'kill "$local_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  grep -q "listening on" "$demo/local.log" 2>/dev/null && break
  kill -0 "$local_pid" 2>/dev/null || { cat "$demo/local.log"; echo "[demo] the local control plane did not start"; exit 1; }
  sleep 0.1
done
export CLUSTERFORM_ENDPOINT="http://127.0.0.1:$port"

pulumi stack select demo 2>/dev/null || pulumi stack init demo
echo "[demo] pulumi up"
pulumi up --yes --non-interactive --skip-preview=false
pulumi stack output
echo "[demo] what the control plane saw (its audit log, GetCluster polls counted apart):"
node -e '
(async () => {
  const { entries } = await (await fetch(process.argv[1])).json();
  const polls = entries.filter((e) => e.operation === "GetCluster").length;
  for (const e of entries.filter((e) => e.operation !== "GetCluster")) {
    console.log(`  ${e.time}  ${e.api}.${e.operation}  ${e.target}  ${e.code}`);
  }
  console.log(`  and ${polls} GetCluster polls`);
})();' "http://127.0.0.1:$port/_local/audit?since=0"
if [ "${1:-}" = "--destroy" ]; then
  pulumi destroy --yes --non-interactive
fi

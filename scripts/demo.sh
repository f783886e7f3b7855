#!/usr/bin/env bash
# The demo: set-up, then the local control plane, then a real `pulumi up` of the quickstart program
# (examples/quickstart: resources of all five platforms), against a local file backend.
#
#   bash scripts/demo.sh            # up, show the outputs and the control plane's audit log
#   bash scripts/demo.sh --destroy  # tear the demo stack down (no up first)
set -euo pipefail
mode=up
case "${1:-}" in
  "") ;;
  --destroy) mode=destroy ;;
  *) echo "usage: bash scripts/demo.sh [--destroy]" >&2; exit 2 ;;
esac
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Only what the demo runs (Node, the package, the Pulumi CLI), not every tool the tests use.
export CLUSTERFORM_SETUP_PROFILE="${CLUSTERFORM_SETUP_PROFILE:-demo}"
# shellcheck source=scripts/setup.sh
. scripts/setup.sh

root="$PWD"
demo="$root/.work/demo"
mkdir -p "$demo/backend" "$demo/home" "$demo/data"
export PULUMI_HOME="$demo/home" PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-clusterform-demo}"
export PULUMI_BACKEND_URL="file://$demo/backend"

# Destroy runs the provider code recorded in the state, which needs the installed package.
if [ "$mode" = up ] || [ ! -d examples/quickstart/node_modules/clusterform ]; then
  echo "[demo] installing the package into examples/quickstart (packed, as users install it)"
  rm -f "$demo"/clusterform-*.tgz
  # setup.sh has just built the package: skip its prepack build.
  packed="$(npm pack --silent --ignore-scripts --pack-destination "$demo" | tail -n 1)"
  mv "$demo/$packed" "$demo/clusterform.tgz"
  # A new tarball has a new integrity hash: drop the old copy and lock so npm installs this one.
  (cd examples/quickstart && rm -rf node_modules/clusterform package-lock.json &&
    npm install --no-audit --no-fund --loglevel=error)
fi

port="${CLUSTERFORM_DEMO_PORT:-9020}"
echo "[demo] starting the local control plane (clusterform-local) on port $port"
# With the set-up's Kubernetes binaries, every cluster of the demo gets a real API server: the demo
# profile does not build them (about 20 minutes cold); `CLUSTERFORM_SETUP_PROFILE=test bash
# scripts/demo.sh` (or a machine whose tests have built them) does.
node dist/emulator/cli.js --port "$port" --data "$demo/data" ${CLUSTERFORM_KUBE_APISERVER:+--kubernetes} >"$demo/local.log" 2>&1 &
local_pid=$!
trap 'kill "$local_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  grep -q "listening on" "$demo/local.log" 2>/dev/null && break
  kill -0 "$local_pid" 2>/dev/null || { cat "$demo/local.log"; echo "[demo] the local control plane did not start"; exit 1; }
  sleep 0.1
done
export CLUSTERFORM_ENDPOINT="http://127.0.0.1:$port"
# The project (its Pulumi.yaml names the plugin the package installed there) and its stack config.
cd examples/quickstart

if [ "$mode" = destroy ]; then
  if ! pulumi stack select demo 2>/dev/null; then
    echo "[demo] there is no demo stack: nothing to destroy"
    exit 0
  fi
  echo "[demo] pulumi destroy"
  pulumi destroy --yes --non-interactive
  exit 0
fi

pulumi stack select demo 2>/dev/null || pulumi stack init demo
# The local control plane's Keystone and CycleCloud both accept admin / admin unless told otherwise.
pulumi config set clusterform:senlinUsername admin
pulumi config set clusterform:senlinProjectName admin
pulumi config set --secret clusterform:senlinPassword admin
pulumi config set clusterform:cyclecloudUsername admin
pulumi config set --secret clusterform:cyclecloudPassword admin
echo "[demo] pulumi up"
pulumi up --yes --non-interactive --skip-preview=false
pulumi stack output
echo "[demo] what the control plane saw (its audit log; reads are counted apart):"
node -e '
(async () => {
  const { entries } = await (await fetch(process.argv[1])).json();
  const read = (e) => /^(Get|List|Lookup|Watch|Query)/.test(e.operation) || e.api === "keystone";
  for (const e of entries.filter((e) => !read(e))) {
    console.log(`  ${e.time}  ${e.api}.${e.operation}  ${e.target}  ${e.code}`);
  }
  console.log(`  and ${entries.filter(read).length} reads (status polls, lookups, tokens)`);
})();' "http://127.0.0.1:$port/_local/audit?since=0"
echo "[demo] tear it down with: bash scripts/demo.sh --destroy"

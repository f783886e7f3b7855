#!/usr/bin/env bash
# `bash scripts/demo.sh` on a fresh machine: a fresh clone of this commit, an empty project cache
# (CLUSTERFORM_CACHE: Node 24, the Go modules and builds, the Pulumi CLI) and an empty npm cache,
# with the system's Node first on PATH, as a new user runs it. Reports the demo's wall and CPU time,
# the set-up's share (its "[setup] ready in" line) and the load average (the 2 cores may be
# shared), then tears the demo down and deletes everything it made.
#
#   bash bench/demo-setup.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/cf-demo-cold.XXXXXX")"
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
git clone --quiet --no-local "$root" "$scratch/clone"
git -C "$scratch/clone" checkout --quiet "$(git -C "$root" rev-parse HEAD)"
export CLUSTERFORM_CACHE="$scratch/cache" npm_config_cache="$scratch/npm-cache"
export CLUSTERFORM_DEMO_PORT="${CLUSTERFORM_DEMO_PORT:-9420}"
# The system's PATH: the Node there is older than the package needs, so the set-up installs one.
export PATH="/usr/local/go/bin:/usr/local/bin:/usr/bin:/bin"
unset CLUSTERFORM_PULUMI_BIN CLUSTERFORM_SETUP_PROFILE
printf 'load before: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s.%N)
{ time -p bash "$scratch/clone/scripts/demo.sh" >"$scratch/demo.log" 2>&1; } 2>"$scratch/time" ||
  { tail -40 "$scratch/demo.log"; exit 1; }
end=$(date +%s.%N)
user=$(awk '/^user/ {print $2}' "$scratch/time")
sys=$(awk '/^sys/ {print $2}' "$scratch/time")
printf 'demo, cold: wall %.1f s, cpu %.1f s, load after %s; %s\n' "$(echo "$end - $start" | bc)" \
  "$(echo "$user + $sys" | bc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(grep -o 'ready in [0-9]* s' "$scratch/demo.log" | head -1)"
grep '^\[setup\]' "$scratch/demo.log" | grep -E 'building|installing|ready' || true
bash "$scratch/clone/scripts/demo.sh" --destroy >/dev/null 2>&1 || echo "demo --destroy failed (the scratch folder is deleted anyway)"
du -sh "$scratch/cache" | awk '{print "project cache after the cold demo: " $1}'

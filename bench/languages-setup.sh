#!/usr/bin/env bash
# Set-up cost of the languages step (scripts/setup/languages.sh: pulumi-language-yaml, the Go
# language host, the Pulumi Go SDK, tools/sdkgen), cold and warm.
#
#   bash bench/languages-setup.sh
#
# Cold: an empty cache folder (CLUSTERFORM_CACHE), so every Go module is downloaded from the module
# proxy and every package compiled; the Pulumi CLI already on this machine is reused (its own
# cold build is the pulumi step's cost, measured separately). Warm: the same step again on that
# cache. Reports seconds of wall time and of CPU (user + system) and the load average, since the
# 2 cores may be shared; deletes the cache folder at the end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli_bin="${CLUSTERFORM_PULUMI_BIN:-$HOME/.cache/clusterform/pulumi/v3.259.0/bin}"
[ -x "$cli_bin/pulumi" ] || { echo "no Pulumi CLI in $cli_bin: run . scripts/setup.sh first" >&2; exit 1; }
cache="$(mktemp -d "${TMPDIR:-/tmp}/cf-bench-cache.XXXXXX")"
trap 'chmod -R u+w "$cache" 2>/dev/null; rm -rf "$cache"' EXIT

measure() {
  local label="$1" log="$cache/$1.log" start end
  start=$(date +%s.%N)
  # `time -p` for the CPU the step and its children used; the CLI is found on PATH and reused.
  { time -p env PATH="$cli_bin:$PATH" CLUSTERFORM_CACHE="$cache" bash "$root/scripts/setup.sh" pulumi languages \
    >"$log" 2>&1; } 2>"$cache/$label.time"
  end=$(date +%s.%N)
  local user sys
  user=$(awk '/^user/ {print $2}' "$cache/$label.time")
  sys=$(awk '/^sys/ {print $2}' "$cache/$label.time")
  printf '%-5s wall %7.1f s  cpu %7.1f s  load %s  (%s)\n' "$label" "$(echo "$end - $start" | bc)" \
    "$(echo "$user + $sys" | bc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(grep -o 'languages: ready in [0-9]* s' "$log")"
}

measure cold
measure warm
du -sh "$cache" | awk '{print "cache after the cold run: " $1}'

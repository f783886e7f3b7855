#!/usr/bin/env bash
# Prints the path of the sdkgen binary (tools/sdkgen), building it first when this machine has no
# build of the current sources. Beside it: sdkgen-dotnet (tools/sdkgen/dotnet, a module of its own
# pinned at the last pkg/v3 that has the .NET generator). Builds are cached in $CLUSTERFORM_CACHE/sdkgen/<hash of the sources>,
# so editing tools/sdkgen rebuilds it and switching branches back reuses the earlier build.
# Run it (`bash scripts/setup/sdkgen.sh`) or let scripts/setup/languages.sh call it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cache="${CLUSTERFORM_CACHE:-$HOME/.cache/clusterform}"
src="$root/tools/sdkgen"
log() { printf '[setup] %s\n' "$*" >&2; }

# The key covers everything `go build` reads from the module: its sources, go.mod and go.sum.
hash="$(cd "$src" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) -print0 |
  LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
dest="$cache/sdkgen/$hash"
if [ -x "$dest/sdkgen" ] && [ -x "$dest/sdkgen-dotnet" ]; then
  echo "$dest/sdkgen"
  exit 0
fi

command -v go >/dev/null || {
  log "FAILED: no Go toolchain to build tools/sdkgen"
  log "what to do: install Go >= 1.25 (the Pulumi CLI's build needs it too)"
  exit 1
}
export GOMODCACHE="$cache/go/mod" GOCACHE="$cache/go/build" GOFLAGS=-modcacherw GOTOOLCHAIN=local CGO_ENABLED=0
mkdir -p "$cache/sdkgen"
tmp="$(mktemp -d "$cache/sdkgen/.partial.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
log "sdkgen: building tools/sdkgen ($hash; cold: a few minutes, then cached)"
start=$SECONDS
(cd "$src" && nice -n 10 go build -trimpath -ldflags "-s -w" -o "$tmp/sdkgen" . &&
  cd dotnet && nice -n 10 go build -trimpath -ldflags "-s -w" -o "$tmp/sdkgen-dotnet" .) &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  sleep 1
  elapsed=$((SECONDS - start))
  if ((elapsed > 0 && elapsed % 30 == 0)) && kill -0 "$pid" 2>/dev/null; then
    log "sdkgen: still building (${elapsed} s)"
  fi
done
wait "$pid" || {
  log "FAILED: go build of tools/sdkgen"
  log "what to do: read the Go errors above; the module proxy must be reachable on a cold machine"
  exit 1
}
rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
log "sdkgen: built in $((SECONDS - start)) s"
echo "$dest/sdkgen"

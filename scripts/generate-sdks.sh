#!/usr/bin/env bash
# Generates the SDK of every Pulumi language from a package schema, offline, with Pulumi's own code
# generators (tools/sdkgen; the CLI's `pulumi package gen-sdk` needs a language host RPC the
# project's build of the Node.js host lacks). Builds tools/sdkgen first if this machine has no build
# of its current sources (cached in $CLUSTERFORM_CACHE/sdkgen).
#
#   bash scripts/generate-sdks.sh [schema.json] [out-dir] [languages]
#
# Defaults: the repository's schema.json, .work/sdks, and nodejs,go,python,dotnet. Each language is
# written to <out-dir>/<language>, replacing what was there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
schema="${1:-$root/schema.json}"
out="${2:-$root/.work/sdks}"
languages="${3:-nodejs,go,python,dotnet}"

[ -f "$schema" ] || {
  echo "generate-sdks: schema '$schema' not found; pass a Pulumi package schema (JSON) as the first argument" >&2
  exit 2
}
# The build of tools/sdkgen's current sources (found by their hash: quick when cached).
sdkgen="$(bash "$root/scripts/setup/sdkgen.sh")"

# sdkgen covers the languages of the CLI's pkg/v3; .NET's generator is a binary of its own.
others=()
dotnet=no
IFS=, read -r -a requested <<<"$languages"
for lang in "${requested[@]}"; do
  if [ "$lang" = dotnet ]; then dotnet=yes; else others+=("$lang"); fi
done
if [ ${#others[@]} -gt 0 ]; then
  "$sdkgen" -schema "$schema" -out "$out" -languages "$(IFS=,; echo "${others[*]}")"
fi
if [ "$dotnet" = yes ]; then
  "$(dirname "$sdkgen")/sdkgen-dotnet" -schema "$schema" -out "$out"
fi

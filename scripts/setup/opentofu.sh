#!/usr/bin/env bash
# Set-up step: the OpenTofu CLI at exactly $CF_TOFU_VERSION, built from the Go module proxy once per
# machine and cached in $CF_CACHE/opentofu/v<version>/bin (sourced by scripts/setup.sh, which defines
# cf_log, cf_fail, cf_with_heartbeat, cf_json_field and CF_CACHE). An installed `tofu` of that
# version is reused. The build goes to a temporary folder moved into place only when complete.
#
# Why a build and not `go install`: OpenTofu's go.mod has a `replace` (its fork of hcl), which
# `go install module@version` refuses; building inside a copy of the downloaded module honours it.

CF_TOFU_VERSION="1.12.6"

# Prints the version a tofu binary reports ("" if it does not run).
# (Warnings about the CLI configuration may come first on stdout.)
cf_tofu_version() { "$1" version 2>/dev/null | sed -n 's/^OpenTofu v//p' | head -1 || true; }

cf_build_opentofu() {
  local dest="$1"
  command -v go >/dev/null || cf_fail "no Go toolchain to build OpenTofu $CF_TOFU_VERSION" \
    "install Go >= 1.24, or put OpenTofu $CF_TOFU_VERSION on PATH as tofu"
  local tmp json
  mkdir -p "$CF_CACHE/opentofu"
  tmp="$(mktemp -d "$CF_CACHE/opentofu/.partial.XXXXXX")"
  # shellcheck disable=SC2064 # expand $tmp now: the trap must remove this build's folder
  trap "rm -rf '$tmp'" EXIT
  cf_log "opentofu: fetching the sources of OpenTofu $CF_TOFU_VERSION from the Go module proxy"
  json="$(env GOMODCACHE="$CF_CACHE/go/mod" GOFLAGS=-modcacherw GOTOOLCHAIN=local \
    go mod download -json "github.com/opentofu/opentofu@v$CF_TOFU_VERSION")" ||
    cf_fail "go mod download github.com/opentofu/opentofu@v$CF_TOFU_VERSION" "check that the Go module proxy is reachable (GOPROXY)"
  cp -R "$(cf_json_field "$json" Dir)" "$tmp/src"
  chmod -R u+w "$tmp/src"
  mkdir -p "$tmp/bin"
  cf_log "opentofu: building tofu $CF_TOFU_VERSION (cold: about 5 minutes on 2 cores, then cached)"
  (cd "$tmp/src" && cf_with_heartbeat "opentofu: building tofu" env CGO_ENABLED=0 GOTOOLCHAIN=local \
    GOFLAGS=-modcacherw GOMODCACHE="$CF_CACHE/go/mod" GOCACHE="$CF_CACHE/go/build" \
    nice -n 10 go build -trimpath -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
    -o "$tmp/bin/tofu" ./cmd/tofu) ||
    cf_fail "go build of OpenTofu" "read the Go errors above; or put OpenTofu $CF_TOFU_VERSION on PATH"
  [ "$(cf_tofu_version "$tmp/bin/tofu")" = "$CF_TOFU_VERSION" ] ||
    cf_fail "the built tofu reports version '$(cf_tofu_version "$tmp/bin/tofu")', not $CF_TOFU_VERSION"
  rm -rf "$dest"
  mkdir -p "$(dirname "$dest")"
  mv "$tmp/bin" "$dest"
  rm -rf "$tmp"
  trap - EXIT
}

cf_setup_opentofu() {
  local existing bin
  existing="$(command -v tofu || true)"
  if [ -n "$existing" ] && [ "$(cf_tofu_version "$existing")" = "$CF_TOFU_VERSION" ]; then
    bin="$(dirname "$existing")"
    cf_log "opentofu: using the installed $existing ($CF_TOFU_VERSION)"
  else
    bin="$CF_CACHE/opentofu/v$CF_TOFU_VERSION/bin"
    if [ "$(cf_tofu_version "$bin/tofu")" = "$CF_TOFU_VERSION" ]; then
      cf_log "opentofu: using cached tofu $CF_TOFU_VERSION"
    else
      cf_build_opentofu "$bin"
    fi
    export PATH="$bin:$PATH"
  fi
  # The e2e tests and the bench find tofu here without relying on PATH order.
  export CLUSTERFORM_TOFU="$bin/tofu"
  # No update checks or telemetry calls to the network from tofu.
  export CHECKPOINT_DISABLE=1
}

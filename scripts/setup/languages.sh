# shellcheck shell=bash
# Set-up step for the Pulumi languages other than TypeScript, sourced by scripts/setup.sh right after
# the Pulumi CLI step (it uses CF_ROOT, CF_CACHE, CF_PULUMI_BIN and the cf_* helpers defined there).
#
# It provides, each built once per machine into $CF_CACHE (temporary folder, moved into place when
# complete, a heartbeat while building):
#   1. pulumi-language-yaml, the YAML language host, from the Go module proxy, beside the CLI so the
#      CLI finds it (a released CLI that already ships one keeps its own).
#   2. pulumi-language-go, the Go language host, beside the CLI. Its module at the CLI's version is
#      refused by the Go module proxy these machines reach (403, like the Node.js host's), so it is
#      built from sdk/v3 v3.66.0, the last release whose module still carried it. It only compiles
#      and starts the user's Go program; the program itself builds on the Go SDK of step 3.
#   3. The Pulumi Go SDK at the CLI's version, downloaded and compiled into the Go caches, so a Go
#      program (and the generated Go SDK) builds without a cold module download.
#   4. tools/sdkgen, the offline SDK generator (scripts/setup/sdkgen.sh), keyed by its sources.

CF_YAML_VERSION="1.25.0" # github.com/pulumi/pulumi-yaml, a plain module: `go install` works
CF_GO_HOST_SDK="3.66.0"  # github.com/pulumi/pulumi/sdk/v3 release still holding go/pulumi-language-go

# The Go caches every Go build of the project shares (the CLI build uses the same ones).
cf_lang_go_env() {
  export GOMODCACHE="$CF_CACHE/go/mod" GOCACHE="$CF_CACHE/go/build" GOFLAGS=-modcacherw GOTOOLCHAIN=local
}

cf_lang_yaml() {
  local dir="$CF_CACHE/pulumi-language-yaml/v$CF_YAML_VERSION"
  if [ -x "$CF_PULUMI_BIN/pulumi-language-yaml" ] && [ ! -L "$CF_PULUMI_BIN/pulumi-language-yaml" ]; then
    cf_log "yaml: using the language host shipped with the CLI ($CF_PULUMI_BIN)"
    return
  fi
  if [ ! -x "$dir/pulumi-language-yaml" ]; then
    command -v go >/dev/null || cf_fail "no Go toolchain to build pulumi-language-yaml $CF_YAML_VERSION" \
      "install Go >= 1.25, or a released Pulumi CLI (it ships the YAML language host)"
    mkdir -p "$CF_CACHE/pulumi-language-yaml"
    local tmp
    tmp="$(mktemp -d "$CF_CACHE/pulumi-language-yaml/.partial.XXXXXX")"
    cf_log "yaml: building pulumi-language-yaml $CF_YAML_VERSION from the Go module proxy (cold: 1-2 minutes, then cached)"
    (cf_lang_go_env && GOBIN="$tmp" CGO_ENABLED=0 cf_with_heartbeat "yaml: building the language host" \
      nice -n 10 go install -trimpath -ldflags "-s -w" \
      "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v$CF_YAML_VERSION") ||
      { rm -rf "$tmp"; cf_fail "go install pulumi-language-yaml@v$CF_YAML_VERSION" "check that the Go module proxy is reachable (GOPROXY)"; }
    rm -rf "$dir"
    mv "$tmp" "$dir"
  fi
  cf_lang_expose "$dir/pulumi-language-yaml"
  cf_log "yaml: pulumi-language-yaml $CF_YAML_VERSION at $dir"
}

# Puts a language host built into the cache where the CLI finds it: beside a CLI the set-up built
# (a link, so a new host version only replaces the link), on PATH for someone else's CLI folder.
cf_lang_expose() {
  local binary="$1"
  if [[ "$CF_PULUMI_BIN" == "$CF_CACHE"/* ]]; then
    ln -sfn "$binary" "$CF_PULUMI_BIN/$(basename "$binary")"
  else
    export PATH="$(dirname "$binary"):$PATH"
  fi
}

cf_lang_go_host() {
  local name=pulumi-language-go dir="$CF_CACHE/pulumi-language-go/sdk-v$CF_GO_HOST_SDK"
  if [ -x "$CF_PULUMI_BIN/$name" ] && [ ! -L "$CF_PULUMI_BIN/$name" ]; then
    cf_log "go: using the language host shipped with the CLI ($CF_PULUMI_BIN)"
    return
  fi
  if [ ! -x "$dir/$name" ]; then
    command -v go >/dev/null || cf_fail "no Go toolchain to build $name" "install Go >= 1.25"
    mkdir -p "$CF_CACHE/pulumi-language-go"
    local tmp src
    tmp="$(mktemp -d "$CF_CACHE/pulumi-language-go/.partial.XXXXXX")"
    cf_log "go: building $name from sdk/v3@v$CF_GO_HOST_SDK (cold: a minute or two, then cached)"
    (
      cf_lang_go_env
      src="$(go mod download -json "github.com/pulumi/pulumi/sdk/v3@v$CF_GO_HOST_SDK" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
      [ -n "$src" ] && cd "$src" &&
        CGO_ENABLED=0 cf_with_heartbeat "go: building the language host" nice -n 10 go build -trimpath \
          -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$CF_GO_HOST_SDK" \
          -o "$tmp/$name" ./go/pulumi-language-go
    ) || { rm -rf "$tmp"; cf_fail "building $name from sdk/v3@v$CF_GO_HOST_SDK" "check that the Go module proxy is reachable (GOPROXY)"; }
    rm -rf "$dir"
    mv "$tmp" "$dir"
  fi
  cf_lang_expose "$dir/$name"
  cf_log "go: $name (from sdk/v3@v$CF_GO_HOST_SDK) at $dir"
}

cf_lang_go_sdk() {
  local version
  version="$(cf_pulumi_version "$CF_PULUMI_BIN/pulumi")"
  local stamp="$CF_CACHE/go/pulumi-go-sdk-v$version.ok"
  if [ ! -f "$stamp" ]; then
    command -v go >/dev/null || cf_fail "no Go toolchain for Go programs" "install Go >= 1.25"
    mkdir -p "$CF_CACHE/go"
    local tmp
    tmp="$(mktemp -d "$CF_CACHE/go/.partial-sdk.XXXXXX")"
    cf_log "go: fetching and compiling the Pulumi Go SDK v$version (cold: a few minutes, then cached)"
    # A throwaway program importing the SDK: building it downloads every module the SDK needs and
    # leaves the compiled packages in the build cache.
    printf 'module prime\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v%s\n' "$version" >"$tmp/go.mod"
    printf 'package main\n\nimport "github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n\nfunc main() { pulumi.Run(nil) }\n' >"$tmp/main.go"
    (cd "$tmp" && cf_lang_go_env && cf_with_heartbeat "go: the Pulumi Go SDK" \
      sh -c 'nice -n 10 go mod tidy && CGO_ENABLED=0 nice -n 10 go build -o prime .') ||
      { rm -rf "$tmp"; cf_fail "building a program on github.com/pulumi/pulumi/sdk/v3@v$version" "check that the Go module proxy is reachable (GOPROXY)"; }
    rm -rf "$tmp"
    touch "$stamp"
  fi
  cf_log "go: Pulumi Go SDK v$version in $CF_CACHE/go"
}

cf_lang_sdkgen() {
  CLUSTERFORM_SDKGEN="$(bash "$CF_ROOT/scripts/setup/sdkgen.sh")" ||
    cf_fail "tools/sdkgen could not be built" "read the errors above"
  export CLUSTERFORM_SDKGEN
  cf_log "sdkgen: $CLUSTERFORM_SDKGEN"
}

cf_setup_languages() {
  local start=$SECONDS
  [ -n "${CF_PULUMI_BIN:-}" ] || cf_fail "the languages step needs the Pulumi CLI step first" \
    "run scripts/setup.sh pulumi languages (or no arguments)"
  cf_lang_yaml
  cf_lang_go_host
  cf_lang_go_sdk
  cf_lang_sdkgen
  cf_log "languages: ready in $((SECONDS - start)) s"
}

cf_setup_languages

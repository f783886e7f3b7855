#!/usr/bin/env bash
# Set-up step "kubernetes", sourced by scripts/setup.sh after the Pulumi step (it uses cf_log,
# cf_fail, cf_with_heartbeat, cf_json_field, $CF_CACHE and the pulumi CLI from there).
#
# It provides, each built once per machine from the Go module proxy and cached in $CF_CACHE:
#   1. kube-apiserver, kube-controller-manager and kubectl v$CF_KUBE_VERSION (for `clusterform-local --kubernetes`),
#   2. kine v$CF_KINE_VERSION (the API servers' storage: SQLite behind an etcd API),
#   3. the provider plugin pulumi-resource-kubernetes at the version of the installed
#      @pulumi/kubernetes, so the CLI never downloads it.
# CLUSTERFORM_SKIP_KUBERNETES=1 skips the step (the plane then runs without --kubernetes).

CF_KUBE_VERSION="1.33.13"
CF_KINE_VERSION="0.17.5"
# pulumi-resource-command is not built: the module proxy these machines reach refuses every version
# of github.com/pulumi/pulumi-command/provider (403), so @pulumi/command cannot run here.
# pulumi-kubernetes: the module proxy these machines reach serves its provider module at this one
# commit only (every tagged provider/v4 version answers 403), and its ../sdk replace is pointed at
# the published sdk/v4 module it requires. See docs/local-plane.md, "Kubernetes behind the local clusters".
CF_K8S_PROVIDER_MODULE="github.com/pulumi/pulumi-kubernetes/provider/v4@v4.0.0-20260115033456-f47bc2d6f199"
CF_K8S_SDK_MODULE="github.com/pulumi/pulumi-kubernetes/sdk/v4@v4.24.0"

cf_go_env() {
  command -v go >/dev/null || cf_fail "no Go toolchain to build $1" "install Go >= 1.24, or set CLUSTERFORM_SKIP_KUBERNETES=1"
  export GOMODCACHE="$CF_CACHE/go/mod" GOCACHE="$CF_CACHE/go/build" GOFLAGS=-modcacherw GOTOOLCHAIN=local
}

# kube-apiserver is not `go install`-able: k8s.io/kubernetes requires its staging modules at v0.0.0
# and replaces them with ./staging paths. A wrapper module requires k8s.io/kubernetes and points each
# staging module at its published v0.<minor>.<patch> twin instead.
cf_build_kube_apiserver() {
  local dest="$1" version="$CF_KUBE_VERSION" tmp json gomod
  cf_go_env "kube-apiserver"
  mkdir -p "$CF_CACHE/kubernetes"
  tmp="$(mktemp -d "$CF_CACHE/kubernetes/.partial.XXXXXX")"
  cf_log "kubernetes: fetching k8s.io/kubernetes v$version from the Go module proxy"
  json="$(go mod download -json "k8s.io/kubernetes@v$version")" ||
    { rm -rf "$tmp"; cf_fail "go mod download k8s.io/kubernetes@v$version" "check that the Go module proxy is reachable (GOPROXY)"; }
  gomod="$(cf_json_field "$json" GoMod)"
  local staging="v0.${version#1.}"
  {
    printf 'module clusterform.local/kube-apiserver\n\ngo 1.24.0\n\nrequire k8s.io/kubernetes v%s\n\n' "$version"
    # Only the staging modules the main module requires (a replace of an unknown one is harmless,
    # but the published twin of a sample module may not exist).
    awk '/=> \.\/staging\/src\// { print $1 }' "$gomod" | while read -r mod; do
      if grep -qE "^[[:space:]]+$mod v0\.0\.0" "$gomod"; then printf 'replace %s => %s %s\n' "$mod" "$mod" "$staging"; fi
    done
  } >"$tmp/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport (\n\t_ "k8s.io/kubernetes/cmd/kube-apiserver/app"\n\t_ "k8s.io/kubernetes/cmd/kube-controller-manager/app"\n\t_ "k8s.io/kubectl/pkg/cmd"\n)\n' >"$tmp/tools.go"
  local ldflags="-s -w -X k8s.io/component-base/version.gitVersion=v$version"
  ldflags+=" -X k8s.io/component-base/version.gitMajor=${version%%.*} -X k8s.io/component-base/version.gitMinor=$(echo "$version" | cut -d. -f2)"
  ldflags+=" -X k8s.io/component-base/version.gitTreeState=clean"
  cf_log "kubernetes: building kube-apiserver v$version (cold: about 6+ minutes on 2 cores, then cached)"
  (cd "$tmp" && cf_with_heartbeat "kubernetes: resolving modules" go mod tidy >&2 &&
    cf_with_heartbeat "kubernetes: building kube-apiserver" env CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$tmp/bin/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver &&
    cf_with_heartbeat "kubernetes: building kube-controller-manager" env CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$tmp/bin/kube-controller-manager" k8s.io/kubernetes/cmd/kube-controller-manager &&
    cf_with_heartbeat "kubernetes: building kubectl" env CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$tmp/bin/kubectl" k8s.io/kubernetes/cmd/kubectl) ||
    { rm -rf "$tmp"; cf_fail "go build of kube-apiserver v$version" "read the Go errors above, or set CLUSTERFORM_SKIP_KUBERNETES=1"; }
  "$tmp/bin/kube-apiserver" --version | grep -q "v$version" ||
    { rm -rf "$tmp"; cf_fail "the built kube-apiserver does not report v$version"; }
  rm -rf "$dest"
  mv "$tmp/bin" "$dest"
  rm -rf "$tmp"
}

# `go install pkg@version` into a temporary GOBIN moved into place when complete.
cf_go_install() {
  local label="$1" pkg="$2" dest="$3" tmp
  cf_go_env "$label"
  mkdir -p "$CF_CACHE/kubernetes"
  tmp="$(mktemp -d "$CF_CACHE/kubernetes/.partial.XXXXXX")"
  cf_log "kubernetes: building $label ($pkg)"
  GOBIN="$tmp/bin" CGO_ENABLED=0 cf_with_heartbeat "kubernetes: building $label" go install -trimpath -ldflags "-s -w ${4:-}" "$pkg" ||
    { rm -rf "$tmp"; cf_fail "go install $pkg" "read the Go errors above, or set CLUSTERFORM_SKIP_KUBERNETES=1"; }
  rm -rf "$dest"
  mv "$tmp/bin" "$dest"
  rm -rf "$tmp"
}

# pulumi-resource-kubernetes builds like the CLI: its go.mod replaces the Go SDK with ../sdk, so the
# two modules are laid out side by side; `go generate` embeds the schema stamped with the version.
cf_build_kubernetes_plugin() {
  local version="$1" dest="$2" tmp pjson sjson
  cf_go_env "pulumi-resource-kubernetes"
  mkdir -p "$CF_CACHE/kubernetes"
  tmp="$(mktemp -d "$CF_CACHE/kubernetes/.partial.XXXXXX")"
  cf_log "kubernetes: fetching $CF_K8S_PROVIDER_MODULE"
  pjson="$(go mod download -json "$CF_K8S_PROVIDER_MODULE")" && sjson="$(go mod download -json "$CF_K8S_SDK_MODULE")" ||
    { rm -rf "$tmp"; cf_fail "go mod download of pulumi-kubernetes" "check that the Go module proxy is reachable (GOPROXY)"; }
  cp -R "$(cf_json_field "$pjson" Dir)" "$tmp/provider"
  cp -R "$(cf_json_field "$sjson" Dir)" "$tmp/sdk"
  chmod -R u+w "$tmp"
  local ldflags="-s -w -X github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version.Version=$version"
  cf_log "kubernetes: building pulumi-resource-kubernetes $version (cold: many minutes on 2 cores, then cached)"
  (cd "$tmp/provider/cmd/pulumi-resource-kubernetes" && VERSION="$version" cf_with_heartbeat "kubernetes: go generate (schema)" go generate . &&
    cd "$tmp/provider" && cf_with_heartbeat "kubernetes: building pulumi-resource-kubernetes" env CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$tmp/bin/pulumi-resource-kubernetes" ./cmd/pulumi-resource-kubernetes) ||
    { rm -rf "$tmp"; cf_fail "go build of pulumi-resource-kubernetes" "read the Go errors above, or set CLUSTERFORM_SKIP_KUBERNETES=1"; }
  rm -rf "$dest"
  mv "$tmp/bin" "$dest"
  rm -rf "$tmp"
}

# Prints the version of an installed npm package of the work tree ("" when absent).
cf_npm_version() {
  node -p 'try { require(process.argv[1] + "/package.json").version } catch { "" }' "$CF_ROOT/node_modules/$1" 2>/dev/null || true
}

cf_setup_kubernetes() {
  if [ "${CLUSTERFORM_SKIP_KUBERNETES:-}" = 1 ]; then
    cf_log "kubernetes: skipped (CLUSTERFORM_SKIP_KUBERNETES=1)"
    return
  fi
  local start=$SECONDS
  local kube="$CF_CACHE/kubernetes/kube-apiserver-v$CF_KUBE_VERSION"
  { [ -x "$kube/kube-apiserver" ] && [ -x "$kube/kube-controller-manager" ] && [ -x "$kube/kubectl" ]; } || cf_build_kube_apiserver "$kube"
  local kine="$CF_CACHE/kubernetes/kine-v$CF_KINE_VERSION"
  [ -x "$kine/kine" ] || cf_go_install "kine v$CF_KINE_VERSION" "github.com/k3s-io/kine@v$CF_KINE_VERSION" "$kine"
  export CLUSTERFORM_KUBE_APISERVER="$kube/kube-apiserver" CLUSTERFORM_KINE="$kine/kine" CLUSTERFORM_KUBECTL="$kube/kubectl" \
    CLUSTERFORM_KUBE_CONTROLLER_MANAGER="$kube/kube-controller-manager"

  # Provider plugins, at the versions the installed npm packages ask the engine for.
  local k8s_version
  k8s_version="$(cf_npm_version @pulumi/kubernetes)"
  local k8s_plugin="$CF_CACHE/kubernetes/pulumi-resource-kubernetes-v$k8s_version"
  # The plugin compiles pulumi-kubernetes's whole generated Go SDK: about 13 minutes cold on an idle
  # 2-core machine, 28 on a busy one (docs/testing.md). It is built only when asked for
  # (CLUSTERFORM_KUBERNETES_PLUGIN=1: the test profile's kubernetes-plugin step asks, the demo's
  # set-up does not), and used whenever a build of it is in the cache.
  if [ -n "$k8s_version" ] && [ ! -x "$k8s_plugin/pulumi-resource-kubernetes" ]; then
    if [ "${CLUSTERFORM_KUBERNETES_PLUGIN:-}" = 1 ]; then
      cf_build_kubernetes_plugin "$k8s_version" "$k8s_plugin"
    else
      cf_log "kubernetes: pulumi-resource-kubernetes not built (set CLUSTERFORM_KUBERNETES_PLUGIN=1 to build it, 13 to 30 min cold)"
    fi
  fi
  if [ -n "$k8s_version" ] && [ -x "$k8s_plugin/pulumi-resource-kubernetes" ]; then
    # The test harness installs it into each test's own PULUMI_HOME from here; the demo and
    # @pulumi/kubernetes's own install script (`pulumi plugin install`) find it in the default home.
    export CLUSTERFORM_PLUGIN_KUBERNETES="$k8s_plugin/pulumi-resource-kubernetes"
    local home="${PULUMI_HOME:-$HOME/.pulumi}"
    if [ ! -x "$home/plugins/resource-kubernetes-v$k8s_version/pulumi-resource-kubernetes" ]; then
      pulumi plugin install resource kubernetes "$k8s_version" --file "$CLUSTERFORM_PLUGIN_KUBERNETES" >&2 ||
        cf_fail "pulumi plugin install resource kubernetes $k8s_version" "read the error above"
    fi
  fi
  cf_log "kubernetes: kube-apiserver v$CF_KUBE_VERSION and kine v$CF_KINE_VERSION ready ($((SECONDS - start)) s)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  echo "source scripts/setup.sh instead: this step uses its helpers" >&2
  exit 1
fi
cf_setup_kubernetes

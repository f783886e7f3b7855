# shellcheck shell=bash
# Set-up step for Python programs, sourced by scripts/setup.sh after the Pulumi CLI step (it uses
# CF_ROOT, CF_CACHE, CF_PULUMI_BIN and the cf_* helpers defined there).
#
# It provides, each made once per machine into $CF_CACHE (temporary folder moved into place when
# complete):
#   1. pulumi-language-python, the Python language host, and beside it its shim
#      pulumi-language-python-exec (which the host runs to start a program), linked beside the CLI.
#      The host's own module at the CLI's version is refused by the Go module proxy these machines
#      reach (403, like the Node.js host's), so it is built from sdk/v3 v3.68.0, whose module still
#      carried it (python/cmd/pulumi-language-python). It only starts Python on the shim; programs
#      run on the Pulumi Python SDK of step 2.
#   2. A wheelhouse: the Pulumi Python SDK at the CLI's version and every package it and the
#      generated SDK need, downloaded from PyPI, so the tests' virtual environments install from it
#      without the network (CLUSTERFORM_PYTHON_WHEELHOUSE).
#   3. The release's Python build tools (tools/release/sdks.ts, pinned), for the wheel and sdist.

CF_PY_HOST_SDK="3.68.0" # github.com/pulumi/pulumi/sdk/v3 release still holding python/cmd/pulumi-language-python

cf_py_host() {
  local name=pulumi-language-python dir="$CF_CACHE/pulumi-language-python/sdk-v$CF_PY_HOST_SDK"
  if [ -x "$CF_PULUMI_BIN/$name" ] && [ ! -L "$CF_PULUMI_BIN/$name" ]; then
    cf_log "python: using the language host shipped with the CLI ($CF_PULUMI_BIN)"
    return
  fi
  if [ ! -x "$dir/$name" ] || [ ! -x "$dir/$name-exec" ]; then
    command -v go >/dev/null || cf_fail "no Go toolchain to build $name" "install Go >= 1.25"
    mkdir -p "$CF_CACHE/pulumi-language-python"
    local tmp src
    tmp="$(mktemp -d "$CF_CACHE/pulumi-language-python/.partial.XXXXXX")"
    cf_log "python: building $name from sdk/v3@v$CF_PY_HOST_SDK (cold: about a minute, then cached)"
    (
      export GOMODCACHE="$CF_CACHE/go/mod" GOCACHE="$CF_CACHE/go/build" GOFLAGS=-modcacherw GOTOOLCHAIN=local
      src="$(go mod download -json "github.com/pulumi/pulumi/sdk/v3@v$CF_PY_HOST_SDK" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')"
      [ -n "$src" ] && cd "$src" &&
        CGO_ENABLED=0 cf_with_heartbeat "python: building the language host" nice -n 10 go build -trimpath \
          -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$CF_PY_HOST_SDK" \
          -o "$tmp/$name" ./python/cmd/pulumi-language-python &&
        cp python/cmd/pulumi-language-python-exec "$tmp/$name-exec" && chmod 755 "$tmp/$name-exec"
    ) || { rm -rf "$tmp"; cf_fail "building $name from sdk/v3@v$CF_PY_HOST_SDK" "check that the Go module proxy is reachable (GOPROXY)"; }
    rm -rf "$dir"
    mv "$tmp" "$dir"
  fi
  # The host finds its shim on PATH: both go beside the CLI (or onto PATH for someone else's CLI).
  if [[ "$CF_PULUMI_BIN" == "$CF_CACHE"/* ]]; then
    ln -sfn "$dir/$name" "$CF_PULUMI_BIN/$name"
    ln -sfn "$dir/$name-exec" "$CF_PULUMI_BIN/$name-exec"
  else
    export PATH="$dir:$PATH"
  fi
  cf_log "python: $name (from sdk/v3@v$CF_PY_HOST_SDK) at $dir"
}

cf_py_wheelhouse() {
  local version
  version="$(cf_pulumi_version "$CF_PULUMI_BIN/pulumi")"
  # The generated SDK's own requirements (parver, semver) beside the SDK's, and what pip needs to
  # build a package from its folder (setuptools, wheel); pip itself, for a fresh environment.
  local reqs=("pulumi==$version" "parver>=0.2.1" "semver>=2.8.1" setuptools wheel pip)
  local key
  key="$(printf '%s\n' "${reqs[@]}" | sha256sum | cut -c1-8)"
  local dir="$CF_CACHE/python/wheelhouse-pulumi-$version-py$("$CF_PYTHON" -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')-$key"
  if [ ! -f "$dir/.complete" ]; then
    mkdir -p "$CF_CACHE/python"
    local tmp
    tmp="$(mktemp -d "$CF_CACHE/python/.partial.XXXXXX")"
    cf_log "python: downloading the Pulumi Python SDK $version and its dependencies from PyPI"
    cf_with_heartbeat "python: pip download" "$CF_PYTHON" -m pip download --quiet --disable-pip-version-check -d "$tmp" "${reqs[@]}" ||
      { rm -rf "$tmp"; cf_fail "pip download pulumi==$version" "check that PyPI is reachable (or set PIP_INDEX_URL)"; }
    touch "$tmp/.complete"
    rm -rf "$dir"
    mv "$tmp" "$dir"
  fi
  export CLUSTERFORM_PYTHON_WHEELHOUSE="$dir"
  cf_log "python: wheelhouse $dir ($(find "$dir" -name '*.whl' | wc -l) wheels)"
}

cf_setup_python() {
  local start=$SECONDS
  [ -n "${CF_PULUMI_BIN:-}" ] || cf_fail "the python step needs the Pulumi CLI step first" "run scripts/setup.sh pulumi python (or no arguments)"
  CF_PYTHON="$(command -v python3 || true)"
  [ -n "$CF_PYTHON" ] && "$CF_PYTHON" -c 'import venv, ensurepip, sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null ||
    cf_fail "python: no python3 >= 3.10 with venv and ensurepip on PATH" "install Python 3.10 or later (Debian: apt-get install python3 python3-venv)"
  export CLUSTERFORM_PYTHON="$CF_PYTHON"
  cf_py_host
  cf_py_wheelhouse
  (cd "$CF_ROOT" && node -e 'import("./tools/release/sdks.ts").then((m) => m.pythonBuildEnv())') ||
    cf_fail "python: the release's build tools could not be installed" "check that PyPI is reachable"
  cf_log "python: ready in $((SECONDS - start)) s"
}

cf_setup_python

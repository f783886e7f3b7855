# shellcheck shell=bash
# Sourced by scripts/setup.sh (with its helpers cf_log, cf_fail, cf_with_heartbeat, CF_ROOT and
# CF_CACHE): builds the Go clients of test/go-clients, which test/unit/go-clients.test.ts runs
# against a local plane, and exports CLUSTERFORM_GO_CLIENTS, the binary's path.
#
# Built once per machine for each version of their sources: the cache key hashes test/go-clients,
# the protos they are generated from and the Go version. The Go code for the protos is generated at
# build time by buf (npm) with protoc-gen-go and protoc-gen-go-grpc, the module's own `go tool`s
# from the Go module proxy. Cold: about three minutes on 2 cores; warm: a hash and nothing else.
# Without a Go toolchain the step is skipped with a warning, and that test says what is missing.

cf_go_clients_key() {
  local go_version="$1"
  (
    cd "$CF_ROOT"
    { find test/go-clients -type f ! -path 'test/go-clients/gen/*' -print0; find proto -name '*.proto' -print0; } |
      sort -z | xargs -0 sha256sum
    echo "$go_version"
  ) | sha256sum | cut -c1-16
}

cf_setup_go_clients() {
  local go
  go="$(command -v go || true)"
  [ -n "$go" ] || [ ! -x /usr/local/go/bin/go ] || go=/usr/local/go/bin/go
  if [ -z "$go" ]; then
    cf_log "go-clients: no Go toolchain on PATH: skipped (test/unit/go-clients.test.ts will fail until Go is installed)"
    return 0
  fi
  local key dest
  key="$(cf_go_clients_key "$("$go" env GOVERSION)")"
  dest="$CF_CACHE/go-clients/$key"
  if [ -x "$dest/goclients" ]; then
    cf_log "go-clients: using cached build $key"
  else
    mkdir -p "$CF_CACHE/go-clients"
    local tmp
    tmp="$(mktemp -d "$CF_CACHE/go-clients/.partial.XXXXXX")"
    cf_log "go-clients: building test/go-clients ($key; cold: a few minutes, then cached)"
    cp -R "$CF_ROOT/test/go-clients" "$tmp/src"
    rm -rf "$tmp/src/gen"
    if ! (
      cd "$tmp/src" &&
        export PATH="$(dirname "$go"):$PATH" GOMODCACHE="$CF_CACHE/go/mod" GOCACHE="$CF_CACHE/go/build" GOFLAGS=-modcacherw GOTOOLCHAIN=local CGO_ENABLED=0 &&
        cf_with_heartbeat "go-clients: generating Go code for the protos" "$CF_ROOT/node_modules/.bin/buf" generate "$CF_ROOT/proto" --template buf.gen.yaml &&
        cf_with_heartbeat "go-clients: compiling" nice -n 10 go build -trimpath -o "$tmp/bin/goclients" .
    ); then
      rm -rf "$tmp"
      cf_fail "building the Go clients of test/go-clients" "read the errors above; the Go module proxy must be reachable for a cold build"
    fi
    rm -rf "$dest"
    mv "$tmp/bin" "$dest"
    rm -rf "$tmp"
    # Builds of other source versions unused for a week go (other work trees may still use newer ones).
    find "$CF_CACHE/go-clients" -mindepth 1 -maxdepth 1 -name '[0-9a-f]*' ! -name "$key" -mtime +7 -exec rm -rf {} +
  fi
  export CLUSTERFORM_GO_CLIENTS="$dest/goclients"
}

cf_setup_go_clients

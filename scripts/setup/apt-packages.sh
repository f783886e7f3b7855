# Sourced by the set-up steps that install Debian packages (senlin-real.sh, chromium.sh): one way of
# installing them, as root or with passwordless sudo, keeping the downloaded .deb files in a folder of
# $CF_CACHE so another machine sharing the cache installs without downloading.

# Exit status 0 when every package named is installed.
cf_apt_installed() {
  local pkg status
  for pkg in "$@"; do
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    [ "$status" = "install ok installed" ] || return 1
  done
}

# cf_apt_install LABEL CACHE_NAME PACKAGE...: installs the packages with apt-get (no recommends),
# their .deb files kept in $CF_CACHE/CACHE_NAME/debs and apt's output in $CF_CACHE/CACHE_NAME/install.log.
# Set CF_APT_SUDO (an array) first with cf_apt_sudo.
cf_apt_install() {
  local label="$1" dir="$CF_CACHE/$2"
  shift 2
  mkdir -p "$dir/debs/partial"
  if ! apt-cache show "$1" >/dev/null 2>&1; then
    cf_with_heartbeat "$label: apt-get update" "${CF_APT_SUDO[@]}" apt-get update -qq
  fi
  if ! cf_with_heartbeat "$label: apt-get install" "${CF_APT_SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends -o "Dir::Cache::archives=$dir/debs" -o APT::Sandbox::User=root \
    "$@" >"$dir/install.log" 2>&1; then
    tail -n 30 "$dir/install.log" >&2
    return 1
  fi
}

# Sets CF_APT_SUDO to what installing needs: nothing as root, `sudo -n` where that works; fails
# otherwise, naming the packages to install by hand.
cf_apt_sudo() {
  local label="$1"
  shift
  CF_APT_SUDO=()
  command -v apt-get >/dev/null 2>&1 ||
    cf_fail "$label: needs Debian's $*, and this machine has no apt-get" "install $* with the system's package manager"
  if [ "$(id -u)" -ne 0 ]; then
    sudo -n true 2>/dev/null || cf_fail "$label: installing $* needs root" "run: sudo apt-get install -y --no-install-recommends $*"
    CF_APT_SUDO=(sudo -n)
  fi
}

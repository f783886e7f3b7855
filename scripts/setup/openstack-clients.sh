# Sourced by scripts/setup.sh: the unmodified OpenStack clients the Senlin tests run
# (emulator/senlin/real-clients.test.ts): `openstack` with python-senlinclient, and openstacksdk,
# from the distribution's packages, for the distribution's /usr/bin/python3. Skips in well under a
# second when they are installed; installs them otherwise (root, or sudo without a password).

CF_OPENSTACK_PACKAGES=(python3-openstackclient python3-senlinclient python3-openstacksdk)

cf_openstack_clients_present() {
  [ -x /usr/bin/python3 ] && [ -x /usr/bin/openstack ] && /usr/bin/python3 -c 'import openstackclient, senlinclient, openstack' 2>/dev/null
}

cf_setup_openstack_clients() {
  if cf_openstack_clients_present; then
    return 0
  fi
  command -v apt-get >/dev/null 2>&1 ||
    cf_fail "openstack clients: /usr/bin/python3 lacks openstackclient, senlinclient or openstacksdk, and this machine has no apt-get" \
      "install ${CF_OPENSTACK_PACKAGES[*]} (Debian 12 or later) with the system's package manager"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    sudo -n true 2>/dev/null ||
      cf_fail "openstack clients: installing ${CF_OPENSTACK_PACKAGES[*]} needs root" "run: sudo apt-get install -y --no-install-recommends ${CF_OPENSTACK_PACKAGES[*]}"
    sudo=(sudo -n)
  fi
  cf_log "openstack clients: installing ${CF_OPENSTACK_PACKAGES[*]} from the distribution"
  # The package lists may be missing on a fresh image: refresh them once, then install.
  if ! apt-cache show "${CF_OPENSTACK_PACKAGES[0]}" >/dev/null 2>&1; then
    cf_with_heartbeat "apt-get update" "${sudo[@]}" apt-get update -qq
  fi
  cf_with_heartbeat "apt-get install" "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${CF_OPENSTACK_PACKAGES[@]}" >/dev/null
  cf_openstack_clients_present || cf_fail "openstack clients: installed, but /usr/bin/python3 still cannot import them" "check: /usr/bin/python3 -c 'import openstackclient, senlinclient, openstack'"
  cf_log "openstack clients: $(/usr/bin/openstack --version 2>&1)"
}

cf_setup_openstack_clients

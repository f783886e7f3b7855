# shellcheck shell=bash
# Sourced by scripts/setup.sh: openstacksdk at its current PyPI release (pinned below), beside the
# distribution's OpenStack clients (scripts/setup/openstack-clients.sh, which the big Senlin client
# test runs), in a virtual environment of the cache: emulator/senlin/real-clients-pypi.test.ts runs
# the local Keystone and Senlin against the SDK `pip install` gives today (Debian 12 has 0.101).
# Only the SDK: the CLI's current releases do not work together for Senlin (python-senlinclient
# 3.1.0, its last release, passes formatters that osc-lib 4.7 refuses, "Invalid formatter provided",
# on every command that shows a profile or a cluster), so the Debian CLI stays the one tested.

CF_OPENSTACK_PYPI=(openstacksdk==4.22.0)

cf_setup_openstack_pypi() {
  local python key dir
  python="$(command -v python3 || true)"
  [ -n "$python" ] && "$python" -c 'import venv, ensurepip' 2>/dev/null ||
    cf_fail "openstacksdk (PyPI): no python3 with venv on PATH" "install Python 3.10 or later with venv"
  key="$(printf '%s\n' "${CF_OPENSTACK_PYPI[@]}" "$("$python" --version 2>&1)" | sha256sum | cut -c1-12)"
  dir="$CF_CACHE/openstack-pypi/$key"
  if [ ! -f "$dir/.complete" ]; then
    rm -rf "$dir"
    mkdir -p "$CF_CACHE/openstack-pypi"
    cf_log "openstacksdk (PyPI): installing ${CF_OPENSTACK_PYPI[*]} into $dir"
    # A virtual environment records its own path: made in place, marked whole at the end.
    { "$python" -m venv "$dir" &&
      cf_with_heartbeat "pip install" "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "${CF_OPENSTACK_PYPI[@]}" &&
      touch "$dir/.complete"; } ||
      { rm -rf "$dir"; cf_fail "pip install ${CF_OPENSTACK_PYPI[*]}" "check that PyPI is reachable"; }
  fi
  export CLUSTERFORM_OPENSTACK_PYPI_PYTHON="$dir/bin/python"
  cf_log "openstacksdk (PyPI): $("$dir/bin/python" -c 'import openstack.version as v; print("openstacksdk", v.__version__)')"
}

cf_setup_openstack_pypi

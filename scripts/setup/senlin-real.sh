# Sourced by scripts/setup.sh (test profile): the real OpenStack Senlin 14.0.0 from Debian 12, with
# what it needs to run on one machine without Nova (Keystone, RabbitMQ, MariaDB, uwsgi), for the
# parity tests of test/senlin-real/ (test/harness/real-senlin.ts starts the daemons, each on its own
# port with its own data; nothing is started here and no system service is configured).
#
# About 310 packages, 500 MB; the .deb files are kept in $CF_CACHE/senlin-real/debs. Skips in well
# under a second when everything is installed. CLUSTERFORM_SKIP_SENLIN_REAL=1 skips the step (the
# parity tests then fail saying what to install).

# shellcheck source=scripts/setup/apt-packages.sh
. "$CF_ROOT/scripts/setup/apt-packages.sh"

CF_SENLIN_REAL_PACKAGES=(senlin-api senlin-engine senlin-conductor senlin-health-manager keystone rabbitmq-server
  mariadb-server python3-pymysql uwsgi uwsgi-plugin-python3)

cf_senlin_real_present() {
  cf_apt_installed "${CF_SENLIN_REAL_PACKAGES[@]}" && [ -x /usr/bin/senlin-api ] && [ -x /usr/bin/keystone-manage ]
}

# Debian 12's python3-greenlet 2.0.2 crashes now and then under Python 3.11 ("SystemError: <built-in
# method switch ...> returned NULL without setting an exception" in eventlet's timer loop; fixed in
# greenlet 3.0, gevent issue 1985): a Senlin daemon died idle during a test run and every test after it
# waited out its timeout. The daemons run with this greenlet first on PYTHONPATH
# (test/harness/real-senlin.ts); eventlet 0.33.1 of the distribution works with it.
CF_SENLIN_GREENLET=3.0.3

cf_senlin_real_greenlet() {
  local dir="$CF_CACHE/senlin-real/greenlet-$CF_SENLIN_GREENLET"
  if [ ! -f "$dir/greenlet/__init__.py" ]; then
    rm -rf "$dir.partial"
    # The wheel for the distribution's python3 (3.11, CPython), whichever python3 comes first on PATH.
    python3 -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
      --python-version 3.11 --implementation cp --abi cp311 --platform manylinux2014_x86_64 \
      --target "$dir.partial" "greenlet==$CF_SENLIN_GREENLET" >>"$CF_CACHE/senlin-real/install.log" 2>&1 ||
      cf_fail "senlin (real): pip could not fetch greenlet $CF_SENLIN_GREENLET" "read $CF_CACHE/senlin-real/install.log"
    mv "$dir.partial" "$dir"
    cf_log "senlin (real): greenlet $CF_SENLIN_GREENLET for the daemons in $dir"
  fi
  export CLUSTERFORM_SENLIN_REAL_PYTHONPATH="$dir"
}

cf_setup_senlin_real() {
  if [ "${CLUSTERFORM_SKIP_SENLIN_REAL:-}" = 1 ]; then
    cf_log "senlin (real): skipped (CLUSTERFORM_SKIP_SENLIN_REAL=1)"
    return 0
  fi
  if ! cf_senlin_real_present; then
    local start=$SECONDS ok=1
    cf_apt_sudo "senlin (real)" "${CF_SENLIN_REAL_PACKAGES[@]}"
    cf_log "senlin (real): installing Senlin, Keystone, RabbitMQ and MariaDB from the distribution (cold: a few minutes)"
    # No service may start or set up a database: there is no init system, and the tests start their
    # own daemons. A policy-rc.d answering 101 keeps the packages' scripts from starting services;
    # debconf keeps dbconfig-common and keystone's own set-up away.
    local rcd=/usr/sbin/policy-rc.d own_rcd=0
    if [ ! -e "$rcd" ]; then
      printf '#!/bin/sh\nexit 101\n' | "${CF_APT_SUDO[@]}" tee "$rcd" >/dev/null
      "${CF_APT_SUDO[@]}" chmod 755 "$rcd"
      own_rcd=1
    fi
    printf '%s\n' \
      'senlin-common senlin-common/dbconfig-install boolean false' \
      'keystone keystone/dbconfig-install boolean false' \
      'keystone keystone/create-admin-tenant boolean false' \
      'keystone keystone/register-endpoint boolean false' | "${CF_APT_SUDO[@]}" debconf-set-selections
    cf_apt_install "senlin (real)" senlin-real "${CF_SENLIN_REAL_PACKAGES[@]}" || ok=0
    [ "$own_rcd" = 1 ] && "${CF_APT_SUDO[@]}" rm -f "$rcd"
    [ "$ok" = 1 ] || cf_fail "senlin (real): apt-get install failed" "read $CF_CACHE/senlin-real/install.log"
    cf_senlin_real_present || cf_fail "senlin (real): installed, but senlin-api or keystone-manage is missing" "read $CF_CACHE/senlin-real/install.log"
    cf_log "senlin (real): installed ($((SECONDS - start)) s)"
  fi
  cf_senlin_real_greenlet
  export CLUSTERFORM_SENLIN_REAL=1
}

cf_setup_senlin_real

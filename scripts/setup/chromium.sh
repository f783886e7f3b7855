# Sourced by scripts/setup.sh (test profile): Debian's Chromium, which the web console's tests
# (test/console/) drive headless through playwright-core (`executablePath`); playwright's own
# browser download is never used. Skips in well under a second when installed.
# CLUSTERFORM_SKIP_CHROMIUM=1 skips the step (the console tests then fail saying what to install).

# shellcheck source=scripts/setup/apt-packages.sh
. "$CF_ROOT/scripts/setup/apt-packages.sh"

CF_CHROMIUM_PACKAGES=(chromium fonts-liberation)

cf_setup_chromium() {
  if [ "${CLUSTERFORM_SKIP_CHROMIUM:-}" = 1 ]; then
    cf_log "chromium: skipped (CLUSTERFORM_SKIP_CHROMIUM=1)"
    return 0
  fi
  if ! { cf_apt_installed "${CF_CHROMIUM_PACKAGES[@]}" && [ -x /usr/bin/chromium ]; }; then
    local start=$SECONDS
    cf_apt_sudo chromium "${CF_CHROMIUM_PACKAGES[@]}"
    cf_log "chromium: installing ${CF_CHROMIUM_PACKAGES[*]} from the distribution"
    cf_apt_install chromium chromium "${CF_CHROMIUM_PACKAGES[@]}" || cf_fail "chromium: apt-get install failed" "read $CF_CACHE/chromium/install.log"
    [ -x /usr/bin/chromium ] || cf_fail "chromium: installed, but /usr/bin/chromium is missing" "read $CF_CACHE/chromium/install.log"
    cf_log "chromium: installed ($((SECONDS - start)) s)"
  fi
  export CLUSTERFORM_CHROMIUM=/usr/bin/chromium
}

cf_setup_chromium

# Sourced by scripts/setup.sh (test and release profiles): user-mode QEMU for arm64 and Debian's arm64 C and C++
# runtime libraries (the cross toolchains' architecture-independent packages, so no arm64 package
# architecture is added to apt), with which the release's arm64 Node makes the linux_arm64
# executables' startup snapshots and test/e2e/release-arm64.test.ts runs them on an amd64 machine. Skips in well under a second when installed; on an
# arm64 machine it installs nothing (the executables run as they are).

# shellcheck source=scripts/setup/apt-packages.sh
. "$CF_ROOT/scripts/setup/apt-packages.sh"

CF_QEMU_ARM64_PACKAGES=(qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross)

cf_setup_qemu_arm64() {
  if [ "$(uname -m)" = aarch64 ]; then
    export CLUSTERFORM_ARM64_RUNNER=
    cf_log "qemu-arm64: not needed on an arm64 machine"
    return 0
  fi
  if ! { cf_apt_installed "${CF_QEMU_ARM64_PACKAGES[@]}" && [ -x /usr/bin/qemu-aarch64-static ]; }; then
    local start=$SECONDS
    cf_apt_sudo qemu-arm64 "${CF_QEMU_ARM64_PACKAGES[@]}"
    cf_log "qemu-arm64: installing ${CF_QEMU_ARM64_PACKAGES[*]} from the distribution"
    cf_apt_install qemu-arm64 qemu-arm64 "${CF_QEMU_ARM64_PACKAGES[@]}" || cf_fail "qemu-arm64: apt-get install failed" "read $CF_CACHE/qemu-arm64/install.log"
    [ -x /usr/bin/qemu-aarch64-static ] || cf_fail "qemu-arm64: installed, but /usr/bin/qemu-aarch64-static is missing" "read $CF_CACHE/qemu-arm64/install.log"
    cf_log "qemu-arm64: installed ($((SECONDS - start)) s)"
  fi
  # How an arm64 executable runs here: the emulator, pointed at the arm64 libraries' folder.
  export CLUSTERFORM_ARM64_RUNNER="/usr/bin/qemu-aarch64-static -L /usr/aarch64-linux-gnu"
}

cf_setup_qemu_arm64

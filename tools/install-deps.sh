#!/usr/bin/env bash
# Installs the Debian packages augur needs. Non-interactive and idempotent.
#   install-deps.sh         what building and running need
#   install-deps.sh --test  also what the tests and CI need (doctest, clang-format, headless Chromium)
set -euo pipefail
PACKAGES=(g++ cmake ninja-build pkg-config zstd
          libboost-dev libspdlog-dev libfmt-dev libyaml-cpp-dev nlohmann-json3-dev
          libzstd-dev zlib1g-dev libotf2-trace-dev libexpat1-dev)
TEST_PACKAGES=(doctest-dev clang-format universal-ctags
               python3  # tools/fuzz/fuzz.py, the `fuzz` test
               chromium fonts-liberation  # headless Chromium for the `browser` test of the HTML report
               slurm-wlm munge)  # the one-node cluster of the `slurm` test (tools/slurm/test-local.sh)
case "${1:-}" in
  "") ;;
  --test) PACKAGES+=("${TEST_PACKAGES[@]}") ;;
  *) echo "install-deps.sh: error: unknown option '$1' (accepted: --test)" >&2; exit 2 ;;
esac
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "install-deps: all ${#PACKAGES[@]} packages present"

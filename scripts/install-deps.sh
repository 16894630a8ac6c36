#!/usr/bin/env bash
# Installs the Debian packages Strata builds, tests and benchmarks with
# (DESIGN.md section 7). A no-op when everything is present; without root it
# prints the apt-get line to run and stops.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config clang clang-format
  libclang-rt-14-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libsnappy-dev liblz4-dev libzstd-dev zlib1g-dev libxxhash-dev
  libleveldb-dev rocksdb-tools librocksdb-dev
  python3 python3-pytest
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "strata: missing Debian packages; run as root:" >&2
  echo "  apt-get update && $cmd" >&2
  exit 1
fi
echo "strata: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$cmd

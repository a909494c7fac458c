#!/usr/bin/env bash
# Configures, builds and installs hcc: build tree in ./build, installed tree in
# ./install (override with HCC_BUILD_DIR / HCC_PREFIX). With --demo: only what
# using hcc needs (no test packages, no test targets), as scripts/demo.sh wants;
# without it the tests and benchmarks are built too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HCC_BUILD_DIR:-$root/build}
prefix=${HCC_PREFIX:-$root/install}
if [ "${1:-}" = --demo ]; then
  "$root/scripts/install-deps.sh" --build-only
  tests=OFF
else
  "$root/scripts/install-deps.sh"
  tests=ON
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DHCC_BUILD_TESTS=$tests
cmake --build "$build" -j "$(nproc)"
cmake --install "$build" >/dev/null
echo "hcc: installed to $prefix"

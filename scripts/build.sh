#!/usr/bin/env bash
# Configures, builds and installs hcc: build tree in ./build, installed tree in
# ./install (override with HCC_BUILD_DIR / HCC_PREFIX).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HCC_BUILD_DIR:-$root/build}
prefix=${HCC_PREFIX:-$root/install}
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX="$prefix"
cmake --build "$build" -j "$(nproc)"
cmake --install "$build" >/dev/null
echo "hcc: installed to $prefix"

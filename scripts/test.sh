#!/usr/bin/env bash
# Builds hcc and runs the whole test suite (unit, end-to-end, benchmark smoke).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HCC_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"

#!/usr/bin/env bash
# Builds hcc and runs the whole test suite (unit, end-to-end, benchmark smoke),
# and, with HCC_SANITIZED=1, the sanitizer configuration
# (scripts/test-sanitized.sh: the runtime, CUBE and hcc-report tests under
# ASan+UBSan in a second build tree). It is off by default until its cost on
# a fresh CI machine (a second full build) has been measured against CI's
# time limit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HCC_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
if [ "${HCC_SANITIZED:-0}" != 0 ]; then
  "$root/scripts/test-sanitized.sh"
fi

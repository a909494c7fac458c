#!/usr/bin/env bash
# Builds hcc and runs the whole test suite (unit, end-to-end, benchmark smoke,
# the fuzzing corpus replayed), then the sanitizer configuration
# (scripts/test-sanitized.sh: the runtime, CUBE and hcc-report tests and a
# subset of the end-to-end tests under ASan+UBSan in a second build tree).
# This is what CI runs (.ci/run). HCC_SANITIZED=0 skips the sanitizer part.
# Between the two, the end-to-end, OpenMP and MPI tests run a second time
# with sampling off (HCC_SAMPLING_PASS=0 skips that pass).
# Its cost, measured from a fresh build tree on the 2-core development VM
# (ccache cold for these flags): about 13-14 min of CPU (user+sys) for its
# build and tests, i.e. roughly 7-8 min of wall time on an idle 2-core CI
# machine (34 min on the VM while other builds kept its load at 11-15).
# At its end it prints the machine's load average at its start and at its
# end, and the 10 slowest tests of both parts (scripts/test-report.py, from
# the JUnit files each ctest run writes into build/test-results/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HCC_BUILD_DIR:-$root/build}
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# The instrumentation servers the tests' compiles start (one per tool
# binary, instrumentor/README.md) end 15 s after the suite's last compile,
# not two minutes after a CI job. Given to ctest's process only: exported,
# it would reach every later command too (tests/config checks that).
server_idle=${HCC_SERVER_IDLE:-15}
"$root/scripts/build.sh"
# Every ctest run of this script and of test-sanitized.sh writes its JUnit
# file here; the old ones go first.
export SUITE_RESULTS_DIR=$build/test-results
rm -rf "$SUITE_RESULTS_DIR" && mkdir -p "$SUITE_RESULTS_DIR"
status=0
HCC_SERVER_IDLE=$server_idle \
  ctest --test-dir "$build" --output-on-failure -j "$(nproc)" --output-junit "$SUITE_RESULTS_DIR/main.xml" || status=$?
# The sampling pass: the end-to-end, OpenMP and MPI tests again with
# HCC_SAMPLING=off given to this ctest process only (each test's programs
# inherit it): sampling is on by default, so the main pass runs with it, and
# this one shows that a run without it (exactly the instrumented one:
# docs/sampling.md) still prints the same and measures the same. The tests
# labelled `sampling` set their own rate, and the benchmark smoke tests
# measure nothing a signal could change: both are left out. Its own JUnit
# file; HCC_SAMPLING_PASS=0 skips it. Runs even when a plain test failed.
if [ "${HCC_SAMPLING_PASS:-1}" != 0 ]; then
  sampling_start=$(date +%s)
  HCC_SAMPLING=off HCC_SERVER_IDLE=$server_idle \
    ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -L '^(e2e|openmp|mpi)$' -LE '^(sampling|bench)$' \
      --output-junit "$SUITE_RESULTS_DIR/sampling-off.xml" || status=$?
  echo "test.sh: the sampling-off pass took $(($(date +%s) - sampling_start)) s"
fi
# The sanitizer part runs even when a plain test failed: CI shows both.
if [ "${HCC_SANITIZED:-1}" != 0 ]; then
  "$root/scripts/test-sanitized.sh" || status=$?
fi
python3 "$root/scripts/test-report.py" --load-before "$load_before" "$SUITE_RESULTS_DIR"/*.xml || true
exit "$status"

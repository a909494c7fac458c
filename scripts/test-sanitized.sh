#!/usr/bin/env bash
# The sanitizer configuration of the test suite (issue 18): a second build
# tree with HCC_SANITIZE=address,undefined (or $HCC_SANITIZE, e.g. thread)
# builds libhcc.so, hcc-report and the tests whose programs CMake builds, and
# runs them with every sanitizer report fatal. Programs built through `hcc`
# (the end-to-end tests) are not part of it: they link an unsanitized main
# program with the sanitized libhcc.so, which ASan refuses.
#   scripts/test-sanitized.sh            # ASan + UBSan in build-sanitize/
#   HCC_SANITIZE=thread scripts/test-sanitized.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
san=${HCC_SANITIZE:-address,undefined}
build=${HCC_SANITIZE_BUILD_DIR:-$root/build-sanitize-${san//,/-}}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHCC_SANITIZE="$san" "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" --target hcc_runtime hcc_report hcc_rt_probe hcc_runtime_tests cube_tests \
  report_tests report_hostile_input_tests
# handle_segv=0: the runtime's own fatal-signal handling is under test (a
# stray fault still fails the test, by its signal instead of ASan's report).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:handle_segv=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# report_signal_unsafe=0: on a fatal signal the runtime writes the profile
# from its handler (malloc, files) on purpose, as a best effort before the
# process dies (runtime/core/README.md); TSan would report exactly that.
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:handle_segv=0:report_signal_unsafe=0}
labels="runtime|cube|report"
# ThreadSanitizer: the runtime's own tests (threads, fork, signals) only.
[ "$san" = thread ] && labels="runtime"
# The report tests that run hcc-report under `ulimit -v` cannot: a sanitizer
# reserves terabytes of address space. They run in the plain suite.
ctest --test-dir "$build" -L "^($labels)\$" -E "^HostileProfile\\." --output-on-failure -j "$(nproc)"

# Shared by the integration tests (sourced). CTest passes (not named HCC_*:
# the runtime warns about unknown HCC_ variables):
#   IT_SRC        hcc's source tree
#   IT_BUILD_DIR  hcc's build tree
#   IT_BIN        the build tree's bin/ (hcc, hcc-cc, hcc-c++, hcc-report)
#   IT_PREFIX     an installation made by the integration_install fixture
#   IT_REFERENCE  the plain sample's output, written by the fixture
#   IT_WORK       a scratch directory for this test (emptied first)
#   CMAKE         the cmake that configured hcc
set -euo pipefail

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "---- $*"; }

# A build environment as a user has it: no hcc settings leaking in.
unset HCC_COMPILER HCC_WRAPPER HCC_FLAGS HCC_OUTPUT_DIR HCC_DRIVER_DEPTH CC CXX CFLAGS CXXFLAGS
export HCC_VERBOSE=0
export OMP_NUM_THREADS=2

rm -rf "$IT_WORK"
mkdir -p "$IT_WORK"
cd "$IT_WORK"

# No profile directory (hcc-<program>-<date>_<time>) anywhere under $1:
# configure probes and checks must never run instrumented.
expect_no_profiles() {
  local found
  found=$(find "$1" -type d -name 'hcc-*-[0-9]*_[0-9]*' | head -5)
  [ -z "$found" ] || fail "profile directories left behind by a configure step: $found"
}

# run_profiled <profile dir> <expected output file or ""> <program> [args…]:
# runs the program with its profile going to <profile dir>, compares its
# output, and writes <profile dir>/report.json with hcc-report --json.
run_profiled() {
  local dir=$1 want=$2
  shift 2
  rm -rf "$dir"
  HCC_OUTPUT_DIR="$dir" "$@" > "$dir.out" || fail "$* exited with $?"
  if [ -n "$want" ]; then
    diff -u "$want" "$dir.out" || fail "$* printed something else than the plain build"
  fi
  [ -f "$dir/profile.cubex" ] || fail "$* wrote no profile in $dir"
  "$HCC_REPORT" --json "$dir" > "$dir/report.json" || fail "hcc-report --json $dir failed"
}

# expect_regions <profile dir> <regex>…: each names a visited region.
expect_regions() {
  local dir=$1
  shift
  local IFS=';'
  "$CMAKE" -DJSON="$dir/report.json" -DREGIONS="$*" -P "$IT_SRC/tests/integration/check_profile.cmake" \
    || fail "regions missing in $dir"
}

# expect_visits <profile dir> '<regex>=<n>'…: the regions matching each regex
# were visited exactly n times (summed over call paths and threads).
expect_visits() {
  local dir=$1
  shift
  local IFS=';'
  "$CMAKE" -DJSON="$dir/report.json" -DVISITS="$*" -P "$IT_SRC/tests/integration/check_profile.cmake" \
    || fail "visits differ in $dir"
}

HCC_REPORT="$IT_BIN/hcc-report"
SAMPLE="$IT_SRC/samples/cmake-project"
# The sample's regions: the C library's (static helpers included) and the
# C++ program's, all of which run on every call of histogram. stats_median
# is not one: a small wrapper of qsort (a call of unknown cost) that
# --hcc-functions=auto leaves out below the minimum size.
SAMPLE_REGIONS=('^main$' '^stats_mean$' '^stats_variance$' '^stats_histogram$'
                '^sum$' 'make_samples' 'print_histogram')
GENERATOR=Ninja
command -v ninja > /dev/null || GENERATOR="Unix Makefiles"

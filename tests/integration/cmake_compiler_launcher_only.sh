#!/usr/bin/env bash
# samples/cmake-project with hcc as the compiler launcher only, as users set
# ccache: CMake links with the plain compiler, without the runtime. The
# objects bind the installed runtime themselves, so the program links, runs,
# prints what the plain build prints and writes a profile with exact visits.
source "$(dirname "$0")/lib.sh"
HCC="$IT_PREFIX/bin/hcc"

step "configure with CMAKE_<LANG>_COMPILER_LAUNCHER only ($GENERATOR)"
"$CMAKE" -S "$SAMPLE" -B build -G "$GENERATOR" \
  -DCMAKE_C_COMPILER_LAUNCHER="$HCC" -DCMAKE_CXX_COMPILER_LAUNCHER="$HCC" > configure.log 2>&1 \
  || { cat configure.log; fail "configure"; }
expect_no_profiles build

step "build: compiles through hcc, the link is CMake's own"
"$CMAKE" --build build -j 2 --verbose > build.log 2>&1 || { cat build.log; fail "build"; }
grep -q "hcc: warning" build.log && { cat build.log; fail "hcc warned during the build"; }
grep -q "$HCC [^ ]*c++ .*-c .*main.cpp" build.log || { cat build.log; fail "the compiles did not go through hcc"; }
if grep -q 'NEEDED.*libhcc' <(readelf -d build/histogram); then fail "libhcc is on the link line: not the flow under test"; fi

step "run: the program binds the installed runtime and writes a profile"
OMP_NUM_THREADS=2 run_profiled "$PWD/prof" "$IT_REFERENCE" build/histogram 20000
expect_regions prof "${SAMPLE_REGIONS[@]}"
# main computes the mean twice (once inside stats_variance), each through sum;
# two threads each run the parallel loop once.
expect_visits prof '^main$=1' 'make_samples=1' '^stats_histogram$=1' '^stats_mean$=2' '^sum$=2' \
  '^stats_variance$=1' 'print_histogram=1' '^!\$omp parallel @.*main.cpp:26$=2'
echo PASS

#!/usr/bin/env bash
# find_package(hcc) from the installed package: hcc_instrument() on the
# sample's targets; then a project that instruments one of two programs,
# with FILTER, and installs it (the runtime is found through its rpath).
source "$(dirname "$0")/lib.sh"

step "samples/cmake-project with -DSAMPLE_HCC_INSTRUMENT=ON ($GENERATOR)"
"$CMAKE" -S "$SAMPLE" -B build -G "$GENERATOR" -DSAMPLE_HCC_INSTRUMENT=ON \
  -DCMAKE_PREFIX_PATH="$IT_PREFIX" > configure.log 2>&1 || { cat configure.log; fail "configure"; }
grep -q "^hcc_DIR:PATH=$IT_PREFIX/lib/cmake/hcc$" build/CMakeCache.txt || fail "found another hcc package"
expect_no_profiles build
"$CMAKE" --build build -j 2 > build.log 2>&1 || { cat build.log; fail "build"; }
grep -q "hcc: warning" build.log && { cat build.log; fail "hcc warned during the build"; }
run_profiled "$PWD/prof" "$IT_REFERENCE" build/histogram 20000
expect_regions prof "${SAMPLE_REGIONS[@]}"

step "hcc_instrument under the toolchain file, with a ccache launcher: hcc once per command"
"$CMAKE" -S "$SAMPLE" -B both -G "$GENERATOR" -DSAMPLE_HCC_INSTRUMENT=ON -DCMAKE_C_COMPILER_LAUNCHER=ccache \
  -DCMAKE_TOOLCHAIN_FILE="$IT_PREFIX/lib/cmake/hcc/hcc-toolchain.cmake" > both.log 2>&1 || { cat both.log; fail "configure (both)"; }
CCACHE_DIR="$PWD/ccache" "$CMAKE" --build both --verbose > both-build.log 2>&1 || { cat both-build.log; fail "build (both)"; }
grep -- " -c .*stats\.c" both-build.log | grep -q "bin/hcc ccache /usr/bin/cc " || { cat both-build.log; fail "ccache not behind hcc"; }
if grep "bin/hcc .*bin/hcc " both-build.log; then fail "hcc launched twice"; fi
run_profiled "$PWD/prof-both" "$IT_REFERENCE" both/histogram 20000
expect_regions prof-both "${SAMPLE_REGIONS[@]}"

step "only the chosen target is instrumented; FILTER excludes work; install"
mkdir -p two
cat > two/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.16)
project(two C)
find_package(hcc REQUIRED)
add_executable(measured measured.c)
add_executable(plain plain.c)
# A plain (keyword-less) target_link_libraries before hcc_instrument: the
# function must not mix signatures on the user's target.
target_link_libraries(measured m)
file(WRITE ${CMAKE_BINARY_DIR}/filter.txt "# hcc filter\nexclude work\n")
hcc_instrument(measured FILTER ${CMAKE_BINARY_DIR}/filter.txt)
foreach(t hcc::runtime hcc::api)
  if(NOT TARGET ${t})
    message(FATAL_ERROR "${t} missing")
  endif()
endforeach()
if(NOT EXISTS "${HCC_TOOLCHAIN_FILE}" OR NOT EXISTS "${HCC_EXECUTABLE}")
  message(FATAL_ERROR "HCC_TOOLCHAIN_FILE/HCC_EXECUTABLE wrong")
endif()
install(TARGETS measured plain DESTINATION bin)
CM
cat > two/measured.c <<'C'
#include <math.h>
#include <stdio.h>
static double work(int n) { double s = 0; for (int i = 1; i <= n; ++i) s += sqrt((double)i); return s; }
int main(void) { printf("%.3f\n", work(1000)); return 0; }
C
cat > two/plain.c <<'C'
#include <stdio.h>
int main(void) { puts("plain"); return 0; }
C
"$CMAKE" -S two -B two-build -G "$GENERATOR" -Dhcc_DIR="$IT_PREFIX/lib/cmake/hcc" \
  -DCMAKE_INSTALL_PREFIX="$PWD/two-install" > two.log 2>&1 || { cat two.log; fail "configure two"; }
"$CMAKE" --build two-build > two-build.log 2>&1 || { cat two-build.log; fail "build two"; }
"$CMAKE" --install two-build > two-install.log || fail "install two"
(cd two-build && ./plain > /dev/null)
expect_no_profiles two-build
run_profiled "$PWD/two-prof" "" two-install/bin/measured
expect_regions two-prof '^main$'
# FILTER really reaches the compile: `work` got no guard at all.
if grep -q '"work"' two-prof/report.json; then fail "FILTER did not exclude work"; fi
if grep -q libhcc.so <(strings two-install/bin/plain); then fail "the target not chosen links the runtime"; fi
echo PASS

#!/usr/bin/env bash
# samples/cmake-project with hcc as compiler and linker launcher (prefix
# mode of the build tree's bin/hcc, no toolchain file, no package); then a
# touched header rebuilds exactly the objects that include it.
source "$(dirname "$0")/lib.sh"
HCC="$IT_BIN/hcc"

step "configure with CMAKE_<LANG>_COMPILER_LAUNCHER / _LINKER_LAUNCHER ($GENERATOR)"
"$CMAKE" -S "$SAMPLE" -B build -G "$GENERATOR" \
  -DCMAKE_C_COMPILER_LAUNCHER="$HCC" -DCMAKE_CXX_COMPILER_LAUNCHER="$HCC" \
  -DCMAKE_C_LINKER_LAUNCHER="$HCC" -DCMAKE_CXX_LINKER_LAUNCHER="$HCC" > configure.log 2>&1 \
  || { cat configure.log; fail "configure"; }
expect_no_profiles build

step "build"
"$CMAKE" --build build -j 2 > build.log 2>&1 || { cat build.log; fail "build"; }
grep -q "hcc: warning" build.log && { cat build.log; fail "hcc warned during the build"; }
run_profiled "$PWD/prof" "$IT_REFERENCE" build/histogram 20000
expect_regions prof "${SAMPLE_REGIONS[@]}"

step "dependency files name the user's sources"
if [ "$GENERATOR" = Ninja ]; then
  ninja -C build -t deps > deps.txt
  grep -q "samples/cmake-project/stats/stats.h" deps.txt || { cat deps.txt; fail "stats.h not among the dependencies"; }
  if grep -q "/hcc-[A-Za-z0-9]\{6\}/\|hcc/detail/" deps.txt; then cat deps.txt; fail "dependencies name hcc's temp files"; fi
fi

step "touching stats.h rebuilds exactly stats.c and main.cpp"
# Copy the sample so touching its header does not disturb other tests.
cp -r "$SAMPLE" src
"$CMAKE" -S src -B b2 -G "$GENERATOR" -DCMAKE_C_COMPILER_LAUNCHER="$HCC" -DCMAKE_CXX_COMPILER_LAUNCHER="$HCC" \
  -DCMAKE_C_LINKER_LAUNCHER="$HCC" -DCMAKE_CXX_LINKER_LAUNCHER="$HCC" > b2.log 2>&1 || { cat b2.log; fail "configure copy"; }
"$CMAKE" --build b2 > b2-build.log 2>&1 || { cat b2-build.log; fail "build copy"; }
"$CMAKE" --build b2 --verbose > nothing.log 2>&1
if grep -q "\.o\b.*-c " nothing.log; then cat nothing.log; fail "a second build recompiled something"; fi
sleep 1; touch src/stats/stats.h
"$CMAKE" --build b2 --verbose > rebuild.log 2>&1 || { cat rebuild.log; fail "rebuild"; }
compiled=$(grep -o -- '-c [^ ]*\(stats\.c\|main\.cpp\)' rebuild.log | sort | tr '\n' ' ')
n=$(grep -c -- ' -c ' rebuild.log || true)
[ "$n" = 2 ] && [ -n "$compiled" ] || { cat rebuild.log; fail "expected 2 compiles after touching stats.h, got $n: $compiled"; }
sleep 1; touch src/app/main.cpp
"$CMAKE" --build b2 --verbose > rebuild2.log 2>&1 || { cat rebuild2.log; fail "rebuild 2"; }
n=$(grep -c -- ' -c ' rebuild2.log || true)
[ "$n" = 1 ] || { cat rebuild2.log; fail "expected 1 compile after touching main.cpp, got $n"; }
echo PASS

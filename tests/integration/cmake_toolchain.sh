#!/usr/bin/env bash
# samples/cmake-project through the installed toolchain file: configure
# checks pass plain (no profiles left), a second configure keeps the cache,
# the program prints what the plain build prints, and its profile has the C
# library's and the C++ program's functions.
source "$(dirname "$0")/lib.sh"
TC="$IT_PREFIX/lib/cmake/hcc/hcc-toolchain.cmake"

step "configure with -DCMAKE_TOOLCHAIN_FILE ($GENERATOR)"
"$CMAKE" -S "$SAMPLE" -B build -G "$GENERATOR" -DCMAKE_TOOLCHAIN_FILE="$TC" > configure.log 2>&1 \
  || { cat configure.log; fail "configure"; }
expect_no_profiles build
grep -q '^SAMPLE_HAVE_BUILTIN_EXPECT:INTERNAL=1$' build/CMakeCache.txt || fail "check_c_source_compiles failed through the toolchain"
grep -q '^OpenMP_CXX_FLAGS:STRING=-fopenmp$' build/CMakeCache.txt || fail "find_package(OpenMP) lost -fopenmp"
# The compilers CMake identified are the real ones; hcc is only the launcher.
compiler() { sed -n "s/^set(CMAKE_$2_COMPILER \"\(.*\)\")$/\1/p" "$1"/CMakeFiles/*/CMake$2Compiler.cmake; }
[ "$(compiler build C)" = "$(command -v cc)" ] || fail "C compiler is $(compiler build C), not cc"
[ "$(compiler build CXX)" = "$(command -v c++)" ] || fail "C++ compiler is $(compiler build CXX), not c++"
if grep -q '^CMAKE_C_IMPLICIT_LINK_LIBRARIES.*hcc' build/CMakeFiles/*/CMakeCCompiler.cmake; then
  fail "libhcc leaked into CMake's implicit link libraries"
fi

step "re-running cmake keeps the cache (no compiler-changed loop)"
cp build/CMakeCache.txt cache.before
"$CMAKE" build > reconfigure.log 2>&1 || { cat reconfigure.log; fail "reconfigure"; }
if grep -qi "cache.*deleted\|You have changed variables" reconfigure.log; then
  cat reconfigure.log; fail "re-running cmake reset the cache"
fi
diff cache.before build/CMakeCache.txt || fail "reconfiguring changed the cache"
[ "$(compiler build C)" = "$(command -v cc)" ] || fail "the C compiler changed on reconfigure"

step "build"
"$CMAKE" --build build -j 2 > build.log 2>&1 || { cat build.log; fail "build"; }
grep -q "hcc: warning" build.log && { cat build.log; fail "hcc warned during the build"; }
run_profiled "$PWD/prof" "$IT_REFERENCE" build/histogram 20000
expect_regions prof "${SAMPLE_REGIONS[@]}"

step "HCC_INSTRUMENT=OFF: the same configuration, plain"
"$CMAKE" -S "$SAMPLE" -B off -G "$GENERATOR" -DCMAKE_TOOLCHAIN_FILE="$TC" -DHCC_INSTRUMENT=OFF > off.log 2>&1 \
  || { cat off.log; fail "configure (off)"; }
"$CMAKE" --build off > off-build.log 2>&1 || { cat off-build.log; fail "build (off)"; }
if grep -q libhcc.so <(strings off/histogram); then fail "HCC_INSTRUMENT=OFF still linked the runtime"; fi

step "HCC_COMPILER=clang… picks clang/clang++ underneath; HCC_FLAGS reach hcc"
# The sample finds OpenMP: the clang that builds OpenMP programs here (plain
# clang may have no omp.h, only one libomp-dev can be installed), by the
# name it has on PATH (clang-19), which the toolchain pairs with clang++-19.
if [ -n "${IT_OMP_CLANG:-}" ]; then
  cl=$(basename "$IT_OMP_CLANG")            # clang-19 (or clang)
  clxx=${cl/clang/clang++}
  HCC_COMPILER="$cl" "$CMAKE" -S "$SAMPLE" -B clang -G "$GENERATOR" -DCMAKE_TOOLCHAIN_FILE="$TC" \
    "-DHCC_FLAGS=--hcc-verbose" > clang.log 2>&1 || { cat clang.log; fail "configure ($cl)"; }
  [[ "$(compiler clang C)" == */$cl ]] || fail "C compiler is $(compiler clang C), not $cl"
  [[ "$(compiler clang CXX)" == */$clxx ]] || fail "C++ compiler is $(compiler clang CXX), not $clxx"
  # HCC_COMPILER still exported while building: the launcher must not mind.
  HCC_COMPILER="$cl" "$CMAKE" --build clang --target stats -j 2 > clang-build.log 2>&1 \
    || { cat clang-build.log; fail "build ($cl)"; }
  grep -q "hcc: run: .*$cl .*stats.c" clang-build.log || { cat clang-build.log; fail "--hcc-verbose from HCC_FLAGS not applied, or $cl not used"; }
else
  echo "no clang builds OpenMP programs here: the clang configuration is left out"
fi
step "hcc-cc/hcc-c++ as CMAKE_<LANG>_COMPILER (compiler mode, no toolchain)"
"$CMAKE" -S "$SAMPLE" -B cm -G "$GENERATOR" -DCMAKE_C_COMPILER="$IT_PREFIX/bin/hcc-cc" \
  -DCMAKE_CXX_COMPILER="$IT_PREFIX/bin/hcc-c++" > cm.log 2>&1 || { cat cm.log; fail "configure (compiler mode)"; }
expect_no_profiles cm   # compiler identification and try_compile/try_run went through hcc
libs=$(grep 'CMAKE_C_IMPLICIT_LINK_LIBRARIES' cm/CMakeFiles/*/CMakeCCompiler.cmake)
case $libs in *stdc++*|*hcc*) fail "C implicit libraries: $libs" ;; esac
"$CMAKE" --build cm -j 2 > cm-build.log 2>&1 || { cat cm-build.log; fail "build (compiler mode)"; }
run_profiled "$PWD/prof-cm" "$IT_REFERENCE" cm/histogram 20000
expect_regions prof-cm "${SAMPLE_REGIONS[@]}"
echo PASS

#!/usr/bin/env bash
# Makefiles that look at the compiler's name: with `make CC=hcc-gcc
# CXX=hcc-g++` (one word, the compiler underneath in the name) an
# XSBench-style makefile adds -fopenmp as it does for gcc, so the program is
# OpenMP-instrumented; a miniFE-style `which $(CXX)` finds one program. The
# toolchain file takes CC=hcc-gcc to mean gcc underneath.
source "$(dirname "$0")/lib.sh"
BIN="$IT_PREFIX/bin"
for w in hcc-cc hcc-c++ hcc-gcc hcc-g++ hcc-clang hcc-clang++ hcc-mpicc hcc-mpicxx hcc-mpic++; do
  [ -L "$BIN/$w" ] && [ "$(readlink "$BIN/$w")" = hcc ] || fail "$BIN/$w is not a relative symlink to hcc"
done
cp -r "$IT_SRC/tests/integration/named-wrappers" plain
cp -r "$IT_SRC/tests/integration/named-wrappers" proj

step "plain reference: make (gcc, g++)"
make -C plain > plain.log 2>&1 || { cat plain.log; fail "plain make"; }
OMP_NUM_THREADS=2 plain/lookup > lookup.reference
grep -q "^threads=2 " lookup.reference || fail "the plain build is not OpenMP: $(cat lookup.reference)"
plain/report > report.reference

step "make CC=hcc-gcc CXX=hcc-g++"
make -C proj CC="$BIN/hcc-gcc" CXX="$BIN/hcc-g++" > make.log 2>&1 || { cat make.log; fail "make"; }
grep -q "hcc-gcc .*-fopenmp -c lookup.c" make.log || { cat make.log; fail "the makefile did not add -fopenmp for hcc-gcc"; }
grep -q "hcc: warning" make.log && { cat make.log; fail "hcc warned"; }
grep -q "^#define BUILT_WITH \"$BIN/hcc-g++\"$" proj/compiler_info.h || { cat proj/compiler_info.h; fail "which \$(CXX)"; }
OMP_NUM_THREADS=2 run_profiled "$PWD/lookup-prof" lookup.reference proj/lookup
# Really OpenMP-instrumented: the parallel loop is a region, once per thread.
expect_visits lookup-prof '^main$=1' '^fill$=1' '^lookup$=1000' '^!\$omp parallel @.*lookup.c:30$=2' \
  '^!\$omp for @.*lookup.c:30$=2'
run_profiled "$PWD/report-prof" report.reference proj/report
expect_visits report-prof '^main$=1' '^checksum=1'

step "make CC=hcc-clang… (clang underneath, its OpenMP)"
"$BIN/hcc-clang" --hcc-show-config | grep -q "^compiler: *clang -> .*(the name hcc-clang)$" \
  || fail "hcc-clang does not run clang"
# Plain clang may have no omp.h (only one libomp-dev can be installed): the
# clang that builds OpenMP here, through a named wrapper of its own name.
if [ -n "${IT_OMP_CLANG:-}" ]; then
  omp_clang=$(basename "$IT_OMP_CLANG")
  mkdir -p wrappers && ln -sf "$BIN/hcc" "wrappers/hcc-$omp_clang"
  make -C proj clean > /dev/null
  PATH="$(dirname "$IT_OMP_CLANG"):$PATH" make -C proj lookup CC="$PWD/wrappers/hcc-$omp_clang" > clang.log 2>&1 \
    || { cat clang.log; fail "make CC=hcc-$omp_clang"; }
  grep -q "hcc-$omp_clang .*-fopenmp" clang.log || { cat clang.log; fail "no -fopenmp for hcc-$omp_clang"; }
  OMP_NUM_THREADS=2 run_profiled "$PWD/clang-prof" lookup.reference proj/lookup
  expect_visits clang-prof '^lookup$=1000' '^!\$omp parallel @.*lookup.c:30$=2'
else
  echo "no clang builds OpenMP programs here: the OpenMP build with clang is left out"
fi

step "the toolchain file reads CC=hcc-gcc CXX=hcc-g++ as gcc and g++ underneath"
mkdir tc-src
printf 'cmake_minimum_required(VERSION 3.13)\nproject(p C CXX)\n' > tc-src/CMakeLists.txt
CC="$BIN/hcc-gcc" CXX="$BIN/hcc-g++" "$CMAKE" -S tc-src -B tc -G "$GENERATOR" \
  -DCMAKE_TOOLCHAIN_FILE="$IT_PREFIX/lib/cmake/hcc/hcc-toolchain.cmake" > tc.log 2>&1 || { cat tc.log; fail "configure"; }
grep -q '^HCC_C_COMPILER:STRING=gcc$' tc/CMakeCache.txt || { grep HCC_C tc/CMakeCache.txt; fail "C underneath"; }
grep -q '^HCC_CXX_COMPILER:STRING=g++$' tc/CMakeCache.txt || { grep HCC_CXX tc/CMakeCache.txt; fail "C++ underneath"; }
echo PASS

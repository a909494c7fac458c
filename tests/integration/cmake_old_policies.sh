#!/usr/bin/env bash
# A project with cmake_minimum_required(VERSION 3.0) (LULESH's): its old
# policies are in force while CMake reads hcc's toolchain file and package.
# It configures, builds, runs unchanged and writes a profile with exact
# visits — with the toolchain file, and with find_package(hcc) +
# hcc_instrument().
source "$(dirname "$0")/lib.sh"
PROJECT="$IT_SRC/tests/integration/old-cmake-project"
TOOLCHAIN="$IT_PREFIX/lib/cmake/hcc/hcc-toolchain.cmake"

step "plain reference build"
"$CMAKE" -S "$PROJECT" -B plain -G "$GENERATOR" > plain.log 2>&1 || { cat plain.log; fail "plain configure"; }
"$CMAKE" --build plain > plain-build.log 2>&1 || { cat plain-build.log; fail "plain build"; }
plain/oldstyle > reference.txt

check_run() {
  local build=$1
  OMP_NUM_THREADS=2 run_profiled "$PWD/prof-$build" reference.txt "$build/oldstyle"
  # relax: five sweeps; its parallel loop: five times on each of two threads.
  expect_visits "prof-$build" '^main$=1' '^init=1' '^relax=5' '^!\$omp parallel @.*kernel.cc:9$=10' \
    '^!\$omp for @.*kernel.cc:9$=10'
}

step "toolchain file"
"$CMAKE" -S "$PROJECT" -B tc -G "$GENERATOR" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" > tc.log 2>&1 \
  || { cat tc.log; fail "a CMake 3.0 project does not configure with the toolchain file"; }
grep -q "CMake Warning\|CMake Error" tc.log && { cat tc.log; fail "the toolchain file draws CMake warnings"; }
expect_no_profiles tc
"$CMAKE" --build tc > tc-build.log 2>&1 || { cat tc-build.log; fail "build with the toolchain file"; }
check_run tc
# Configuring again changes nothing (no cache-deleting loop).
"$CMAKE" tc > tc2.log 2>&1 || { cat tc2.log; fail "second configure"; }
grep -qi "cache will be deleted\|you have changed variables" tc2.log && { cat tc2.log; fail "reconfigure loop"; }

step "find_package(hcc) + hcc_instrument()"
"$CMAKE" -S "$PROJECT" -B pkg -G "$GENERATOR" -DOLD_USE_HCC_PACKAGE=ON -Dhcc_DIR="$IT_PREFIX/lib/cmake/hcc" \
  > pkg.log 2>&1 || { cat pkg.log; fail "a CMake 3.0 project does not configure with find_package(hcc)"; }
"$CMAKE" --build pkg > pkg-build.log 2>&1 || { cat pkg-build.log; fail "build with hcc_instrument"; }
check_run pkg
echo PASS

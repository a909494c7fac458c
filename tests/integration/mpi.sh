#!/usr/bin/env bash
# MPI compiler wrappers underneath hcc: prefix mode (`hcc mpicc`), the named
# wrappers hcc-mpicc/hcc-mpicxx, HCC_COMPILER=mpicxx, and find_package(MPI)
# through the toolchain file.
# Each program runs on 2 ranks; with the PMPI wrappers (libhcc_mpi) linked,
# rank 0 writes one merged profile holding both ranks.
source "$(dirname "$0")/lib.sh"
HCC="$IT_BIN/hcc"
command -v mpicc > /dev/null && command -v mpirun > /dev/null || fail "Open MPI missing (scripts/install-deps.sh)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
P="$IT_SRC/tests/integration/mpi-project"

# mpirun_profiled <name> <program>: each rank is given its own
# HCC_OUTPUT_DIR=<name>-<rank>; rank 0's directory wins for the job (it is
# broadcast at MPI_Init) and holds the one merged profile; rank 1 creates
# nothing.
mpirun_profiled() {
  local name=$1 prog=$2
  rm -rf "$name"-*
  timeout 120 mpirun -np 2 sh -c "HCC_OUTPUT_DIR=$PWD/$name-\$OMPI_COMM_WORLD_RANK exec $prog" > "$name.out" \
    || fail "mpirun $prog"
  grep -q "^ranks=2 sum=3$" "$name.out" || { cat "$name.out"; fail "$prog output"; }
  [ -f "$name-0/profile.cubex" ] || fail "rank 0 wrote no merged profile"
  [ -e "$name-1" ] && fail "rank 1 created $name-1"
  "$HCC_REPORT" --json "$name-0" > "$name-0/report.json"
  expect_regions "$name-0" '^main$' '^ring_exchange$' 'total' '^MPI_Init$'
  grep -q '"rank":1' "$name-0/report.json" || fail "rank 1 missing from the merged profile"
}

step "hcc mpicc / hcc mpicxx (prefix mode)"
# The wrappers' hidden -I (for <mpi.h>) must reach the instrumentor: no
# "could not instrument" warning.
"$HCC" mpicc -O2 -c "$P/exchange.c" -o exchange.o 2> prefix.err
"$HCC" mpicxx -O2 -c "$P/ring.cpp" -o ring.o 2>> prefix.err
"$HCC" mpicxx exchange.o ring.o -o ring-prefix 2>> prefix.err
grep "hcc: warning" prefix.err && fail "hcc warned"
mpirun_profiled prefix ./ring-prefix

step "named wrappers hcc-mpicc / hcc-mpicxx (one word each, as CC=/CXX= of a makefile)"
"$IT_BIN/hcc-mpicc" -O2 -c "$P/exchange.c" -o exchange-named.o 2> named.err
"$IT_BIN/hcc-mpicxx" -O2 "$P/ring.cpp" exchange-named.o -o ring-named 2>> named.err
grep "hcc: warning" named.err && fail "hcc warned"
mpirun_profiled named ./ring-named

step "hcc -c objects linked by plain mpicxx: no PMPI wrappers, unless preloaded"
mpicxx exchange-named.o ring.o -o ring-plainlink
rm -rf plainlink-*
timeout 120 mpirun -np 2 sh -c "HCC_OUTPUT_DIR=$PWD/plainlink-\$OMPI_COMM_WORLD_RANK exec ./ring-plainlink" \
  > plainlink.out || fail "mpirun ./ring-plainlink"
grep -q "^ranks=2 sum=3$" plainlink.out || { cat plainlink.out; fail "./ring-plainlink output"; }
# Each rank is a program of its own: its own profile, its own code only.
for r in 0 1; do
  [ -f "plainlink-$r/profile.cubex" ] || fail "rank $r wrote no profile of its own"
  "$HCC_REPORT" --json "plainlink-$r" > "plainlink-$r/report.json"
  expect_regions "plainlink-$r" '^main$' '^ring_exchange$'
  grep -q '"name": *"MPI_Init"' "plainlink-$r/report.json" && fail "MPI measured without the PMPI wrappers?"
done
# LD_PRELOAD puts the wrappers (and libhcc) ahead of libmpi: MPI is measured
# and rank 0 writes the merged profile, as after an hcc link.
mpirun_profiled preload "env LD_PRELOAD=$IT_BUILD_DIR/lib/libhcc_mpi.so ./ring-plainlink"

step "HCC_COMPILER=mpicxx hcc"
HCC_COMPILER=mpicxx "$HCC" -O2 "$P/ring.cpp" exchange.o -o ring-env 2> env.err
grep "hcc: warning" env.err && fail "hcc warned"
mpirun_profiled env ./ring-env

step "find_package(MPI) through the toolchain file"
"$CMAKE" -S "$P" -B build -G "$GENERATOR" -DCMAKE_TOOLCHAIN_FILE="$IT_PREFIX/lib/cmake/hcc/hcc-toolchain.cmake" \
  > configure.log 2>&1 || { cat configure.log; fail "configure"; }
expect_no_profiles build
"$CMAKE" --build build > build.log 2>&1 || { cat build.log; fail "build"; }
grep -q "hcc: warning" build.log && { cat build.log; fail "hcc warned during the build"; }
mpirun_profiled cmake build/ring
echo PASS

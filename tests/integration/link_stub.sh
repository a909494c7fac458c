#!/usr/bin/env bash
# The link stubs (runtime/link_stub/), installed and in the build tree: each
# has its library's SONAME, exported functions and weak references, and
# nothing behind it (no DT_NEEDED, no symbol left to find). A program hcc
# links is linked against the stub, comes out with the dynamic symbols,
# NEEDED and RUNPATH a link against the real runtime gives, loads the real
# one and writes its profile; an uninstrumented one still says it measured
# nothing; an MPI program links both stubs, the PMPI wrappers first.
source "$(dirname "$0")/lib.sh"
HCC="$IT_PREFIX/bin/hcc"
LIB="$IT_PREFIX/lib"
SRC="$IT_SRC/tests/integration/plain-link"

soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p'; }
# Type and name of each exported symbol; the weak references without a
# version (those the program, not another library, may define).
exported() { nm -D --defined-only "$1" | awk '{print $2, $3}' | sort; }
weak_refs() { nm -D --undefined-only "$1" | awk '$1 ~ /^[wv]$/ && $2 !~ /@/ {print $2}' | sort; }
# The dynamic symbols as the loader sees them (no addresses: the order of
# the table may differ), and what the program loads from where.
dyn_symbols() { readelf -W --dyn-syms "$1" | awk '$1 ~ /^[0-9]+:$/ {print $4, $5, $6, $7, $8}' | sort; }
dyn_deps() { readelf -d "$1" | grep -E '\((NEEDED|RUNPATH|RPATH)\)' | sed 's/^ *0x[0-9a-f]* *//'; }

# same_as_runtime_link <hcc --hcc-verbose log of a link with -Wl,-t> <program> <library>…:
# the linker read the stubs of the libraries, never the libraries; and hcc's
# link command again, with -L<lib> for -L<lib>/hcc-link, gives a program
# with the same dynamic symbols, NEEDED and RUNPATH.
same_as_runtime_link() {
  local log=$1 prog=$2 cmd real lib
  shift 2
  for lib in "$@"; do
    grep -qx "$LIB/hcc-link/$lib" "$log" || { cat "$log"; fail "the linker did not read the stub of $lib"; }
    grep -qx "$LIB/$lib" "$log" && fail "the linker read the real $lib"
  done
  cmd=$(grep -m1 -- "^hcc: exec: .* -o $prog " "$log" | sed 's/^hcc: exec: //')
  [[ "$cmd" == *" -L$LIB/hcc-link "* ]] || { cat "$log"; fail "no link command with -L$LIB/hcc-link"; }
  real=${cmd//-L$LIB\/hcc-link /-L$LIB }
  real=${real/ -o $prog / -o $prog-real }
  eval "$real" > "$prog-real.log" 2>&1 || { cat "$prog-real.log"; fail "linking against the real runtime: $real"; }
  for lib in "$@"; do
    grep -qx "$LIB/$lib" "$prog-real.log" || { cat "$prog-real.log"; fail "the reference link did not read $LIB/$lib"; }
  done
  diff <(dyn_symbols "$prog-real") <(dyn_symbols "$prog") > dynsym.diff \
    || { cat dynsym.diff; fail "$prog's dynamic symbols differ from a link against the runtime (< real, > stub)"; }
  diff <(dyn_deps "$prog-real") <(dyn_deps "$prog") > deps.diff \
    || { cat deps.diff; fail "$prog's NEEDED/RUNPATH differ from a link against the runtime (< real, > stub)"; }
}

check_stub() {  # <real library> <its stub>
  local real=$1 stub=$2 needed strong
  [ -f "$stub" ] || fail "no link stub $stub next to $real"
  [ -n "$(soname "$real")" ] && [ "$(soname "$stub")" = "$(soname "$real")" ] \
    || fail "$stub has SONAME '$(soname "$stub")', $real '$(soname "$real")'"
  diff <(exported "$real") <(exported "$stub") > exported.diff \
    || { cat exported.diff; fail "$stub does not export what $real exports (< real, > stub)"; }
  diff <(weak_refs "$real") <(weak_refs "$stub") > weak.diff \
    || { cat weak.diff; fail "$stub does not make the weak references $real makes"; }
  needed=$(readelf -d "$stub" | grep '(NEEDED)' || true)
  [ -z "$needed" ] || fail "$stub depends on other libraries: $needed"
  strong=$(nm -D --undefined-only "$stub" | awk '$1 == "U"')
  [ -z "$strong" ] || fail "$stub has undefined symbols: $strong"
}

step "the stubs of the installation and of the build tree"
for dir in "$LIB" "$IT_BUILD_DIR/lib"; do
  check_stub "$dir/libhcc.so" "$dir/hcc-link/libhcc.so"
  if [ -e "$dir/libhcc_mpi.so" ]; then check_stub "$dir/libhcc_mpi.so" "$dir/hcc-link/libhcc_mpi.so"; fi
done
# What makes the program export the driver's --defsym (nothing_measured.cpp).
grep -qx __hcc_linked_by_hcc <(weak_refs "$LIB/hcc-link/libhcc.so") || fail "the stub lacks the weak __hcc_linked_by_hcc"

step "a program linked by hcc: against the stub, as if against the runtime"
gcc -O2 "$SRC/greet.c" -shared -fPIC -o libgreet.so  # plain: only main.c and calc.c are measured
gcc -O2 "$SRC/main.c" "$SRC/calc.c" -L. -lgreet -Wl,-rpath,"$PWD" -o c-plain
./c-plain > c.reference
"$HCC" --hcc-functions=all -O2 -c "$SRC/main.c" -o main.o
"$HCC" --hcc-functions=all -O2 -c "$SRC/calc.c" -o calc.o
"$HCC" --hcc-verbose main.o calc.o -L. -lgreet -Wl,-rpath,"$PWD" -Wl,-t -o app > link.log 2>&1 \
  || { cat link.log; fail "hcc could not link"; }
same_as_runtime_link link.log app libhcc.so
grep -q "(NEEDED).*\[libhcc.so\]" <(dyn_deps app) || fail "the program does not need libhcc.so"
dyn_deps app | grep -E '\((RUNPATH|RPATH)\)' | grep -qF "[$PWD:$LIB]" || { dyn_deps app; fail "the run path is not $LIB"; }
# The real runtime runs: the interposed longjmp keeps jumper's visits right.
run_profiled "$PWD/app-prof" c.reference ./app
expect_visits app-prof '^main$=1' '^square$=10' '^fib$=177' '^jump_back$=1' '^jumper$=4'

step "an uninstrumented program linked by hcc still says it measured nothing"
printf '#include <stdio.h>\nint main(void) { puts("plain"); return 0; }\n' > plain.c
gcc -O2 -c plain.c -o plain.o
"$HCC" plain.o -o plain-app
grep -q "__hcc_linked_by_hcc" <(dyn_symbols plain-app) || fail "the program does not export __hcc_linked_by_hcc"
env -u HCC_VERBOSE HCC_OUTPUT_DIR="$PWD/plain-prof" ./plain-app > plain.out 2> plain.err || fail "plain-app failed"
grep -q "^hcc: plain-app measured nothing" plain.err || { cat plain.err; fail "no 'measured nothing' note"; }

if [ -e "$LIB/libhcc_mpi.so" ] && command -v mpicc > /dev/null; then
  step "an MPI program links both stubs; the PMPI wrappers come first"
  printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); return MPI_Finalize(); }\n' > mpi-main.c
  "$HCC" mpicc -O2 -c mpi-main.c -o mpi-main.o
  "$HCC" --hcc-verbose mpicc mpi-main.o -Wl,-t -o mpi-app > mpi-link.log 2>&1 || { cat mpi-link.log; fail "hcc mpicc"; }
  same_as_runtime_link mpi-link.log mpi-app libhcc_mpi.so libhcc.so
  needed=$(dyn_deps mpi-app | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  [[ "$needed" == "libhcc_mpi.so libhcc.so "* ]] || fail "NEEDED order: $needed"
fi
echo PASS

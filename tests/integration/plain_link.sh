#!/usr/bin/env bash
# Objects from `hcc -c` linked by a plain compiler (gcc, g++, gcc -shared,
# clang -fopenmp), as libtool, Python extension builds and makefiles with
# their own LD do: the program links without libhcc on the link line, binds
# the installed runtime itself, prints what the plain build prints and
# writes a profile with exact visits. Then the usual `hcc` link: libhcc is
# linked and loaded at start-up, not loaded later.
source "$(dirname "$0")/lib.sh"
HCC="$IT_PREFIX/bin/hcc"
SRC="$IT_SRC/tests/integration/plain-link"
RUNTIME="$IT_PREFIX/lib/libhcc.so"

# How the runtime came into the process: "needed" (on the link line) or
# "dlopen" (loaded by the objects themselves), from the loader's own log.
runtime_loaded_as() {
  local log
  log=$(LD_DEBUG=files HCC_OUTPUT_DIR="$PWD/ld-debug-prof" "$@" 2>&1 >/dev/null)
  rm -rf ld-debug-prof
  if grep -q "file=$RUNTIME \[0\];  dynamically loaded by" <<< "$log"; then echo dlopen
  elif grep -q "file=libhcc.so \[0\];  needed by" <<< "$log"; then echo needed
  else echo "unknown: $(grep -i libhcc <<< "$log" | head -3)"
  fi
}

# The sources' one-line functions are counted: every function instrumented.
step "C: hcc -c, then gcc links (and gcc -shared builds a library)"
gcc -O2 "$SRC/greet.c" -shared -fPIC -o libgreet-plain.so
gcc -O2 "$SRC/main.c" "$SRC/calc.c" -L. -lgreet-plain -Wl,-rpath,"$PWD" -o c-plain
./c-plain > c.reference
"$HCC" --hcc-functions=all -O2 -c "$SRC/main.c" -o main.o
"$HCC" --hcc-functions=all -O2 -c "$SRC/calc.c" -o calc.o
"$HCC" --hcc-functions=all -O2 -fPIC -c "$SRC/greet.c" -o greet.o
gcc -shared greet.o -o libgreet.so
# Objects without OpenMP code carry the core trampolines only (bind.h).
grep -q ' __hcc_t_hcc_enter$' <(nm main.o) || fail "main.o has no trampoline for hcc_enter"
if grep -q '__hcc_t_POMP2_' <(nm main.o); then fail "main.o (no OpenMP) carries the OpenMP trampolines"; fi
gcc main.o calc.o -L. -lgreet -Wl,-rpath,"$PWD" -o c-app > link.log 2>&1 || { cat link.log; fail "gcc could not link hcc objects"; }
if grep -q 'NEEDED.*libhcc' <(readelf -d c-app libgreet.so); then fail "a plain link has libhcc on its link line?"; fi
run_profiled "$PWD/c-prof" c.reference ./c-app
expect_visits c-prof '^main$=1' '^square$=10' '^fib$=177' '^jump_back$=1' '^jumper$=4' '^greet$=1' '^say$=3'
[ "$(runtime_loaded_as ./c-app)" = dlopen ] || fail "the objects did not load $RUNTIME: $(runtime_loaded_as ./c-app)"

step "the library loaded by an uninstrumented host with dlopen(RTLD_LOCAL), as Python loads extensions"
cat > host.c <<'HOST'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h) { fprintf(stderr, "%s\n", dlerror()); return 2; }
  int (*greet)(int) = (int (*)(int))dlsym(h, "greet");
  printf("greeted %d\n", greet(2));
  return 0;
}
HOST
gcc host.c -o host
printf 'hello 0\nhello 1\ngreeted 2\n' > host.reference
run_profiled "$PWD/host-prof" host.reference ./host "$PWD/libgreet.so"
expect_visits host-prof '^greet$=1' '^say$=2'

step "C++: hcc -c, then g++ links"
g++ -O2 -std=c++17 -I"$SRC" "$SRC/app.cpp" "$SRC/shapes.cpp" -o cxx-plain
./cxx-plain > cxx.reference
"$HCC" --hcc-functions=all -O2 -std=c++17 -c "$SRC/app.cpp" -o app.o
"$HCC" --hcc-functions=all -O2 -std=c++17 -c "$SRC/shapes.cpp" -o shapes.o
g++ app.o shapes.o -o cxx-app > link.log 2>&1 || { cat link.log; fail "g++ could not link hcc objects"; }
run_profiled "$PWD/cxx-prof" cxx.reference ./cxx-app
expect_visits cxx-prof '^main$=1' '^Square::area=4' '^Circle::area=4' '^total_area=1' 'lambda at .*shapes.cpp=8' \
  '^checked=5' 'twice\(T\)=1'

step "OpenMP: hcc -fopenmp -c, then gcc -fopenmp (libgomp) and clang -fopenmp (libomp) link"
gcc -O2 -fopenmp "$SRC/omp.c" -o omp-plain
./omp-plain > omp.reference
omp_compilers=(gcc)
if [ -n "${IT_OMP_CLANG:-}" ]; then omp_compilers+=("$IT_OMP_CLANG"); else echo "no clang builds OpenMP programs here: clang step left out"; fi
for cc in "${omp_compilers[@]}"; do
  cc_name=$(basename "$cc")
  "$HCC" --hcc-compiler=$cc -O2 -fopenmp -c "$SRC/omp.c" -o omp-$cc_name.o
  grep -q ' __hcc_t_POMP2_Parallel_fork$' <(nm omp-$cc_name.o) || fail "omp-$cc_name.o lacks the OpenMP trampolines"
  $cc -fopenmp omp-$cc_name.o -o omp-$cc_name > link.log 2>&1 || { cat link.log; fail "$cc_name -fopenmp could not link an hcc object"; }
  run_profiled "$PWD/omp-$cc_name-prof" omp.reference ./omp-$cc_name
  # Two threads: each construct is visited once per thread.
  expect_visits omp-$cc_name-prof '^main$=1' '^work$=100' '^!\$omp parallel @.*omp.c:16$=2' '^!\$omp for @.*omp.c:16$=2' \
    '^!\$omp parallel @.*omp.c:18$=2' '^omp_set_lock$=2' '^omp_unset_lock$=2'
done

step "every runtime function the public headers declare is bound by the object itself"
{
  echo '#include <hcc/region.h>'
  echo '#include <hcc/hcc.h>'
  echo '#include <hcc/pomp2.h>'
  echo 'void *hcc_all_entries[] = {'
  sed -n 's/^\(void\|int\) \(\(hcc\|POMP2\)_[A-Za-z_]*\)(.*/  (void *)\&\2,/p' \
    "$IT_PREFIX/include/hcc/region.h" "$IT_PREFIX/include/hcc/hcc.h" "$IT_PREFIX/include/hcc/pomp2.h"
  echo '};'
} > all_entries.c
n=$(grep -c '(void \*)&' all_entries.c)
[ "$n" -ge 60 ] || { cat all_entries.c; fail "found only $n runtime functions in the headers"; }
"$HCC" -I"$IT_PREFIX/include" -c all_entries.c -o all_entries.o
undefined=$(nm -u all_entries.o | grep -E ' (hcc|POMP2)_' || true)
[ -z "$undefined" ] || fail "the object references the runtime directly (a plain link would fail): $undefined"

step "a runtime that moved: a clear error with status 127, or found through the library path"
cp -r "$IT_PREFIX" moved-prefix
# --hcc-functions=all: under auto checked() is left out (small, and its only
# call of unknown cost is std::invalid_argument's constructor, in libstdc++).
moved-prefix/bin/hcc --hcc-functions=all -O2 -std=c++17 -c "$SRC/app.cpp" -o app-moved.o
moved-prefix/bin/hcc --hcc-functions=all -O2 -std=c++17 -c "$SRC/shapes.cpp" -o shapes-moved.o
g++ app-moved.o shapes-moved.o -o cxx-moved
rm -rf moved-prefix
set +e
HCC_OUTPUT_DIR="$PWD/moved-prof" ./cxx-moved > moved.out 2> moved.err
status=$?
set -e
[ "$status" = 127 ] || { cat moved.err; fail "a missing runtime gave status $status, not 127"; }
grep -q "hcc: error: cannot load the measurement runtime $PWD/moved-prefix/lib/libhcc.so" moved.err \
  || { cat moved.err; fail "the error does not name the runtime's path"; }
LD_LIBRARY_PATH="$IT_PREFIX/lib" run_profiled "$PWD/moved-prof" cxx.reference ./cxx-moved
expect_visits moved-prof '^main$=1' '^checked=5'

step "the usual hcc link: libhcc is linked and loaded at start-up, the profile is the same"
"$HCC" main.o calc.o -L. -lgreet -Wl,-rpath,"$PWD" -o c-hcc
grep -q 'NEEDED.*\[libhcc.so\]' <(readelf -d c-hcc) || fail "hcc did not link libhcc"
[ "$(runtime_loaded_as ./c-hcc)" = needed ] || fail "libhcc was not loaded as a dependency: $(runtime_loaded_as ./c-hcc)"
run_profiled "$PWD/c-hcc-prof" c.reference ./c-hcc
expect_visits c-hcc-prof '^main$=1' '^square$=10' '^fib$=177' '^jump_back$=1' '^jumper$=4' '^greet$=1' '^say$=3'
"$HCC" -Wl,--as-needed main.o calc.o -L. -lgreet -Wl,-rpath,"$PWD" -o c-hcc-as-needed
grep -q 'NEEDED.*\[libhcc.so\]' <(readelf -d c-hcc-as-needed) || fail "--as-needed dropped libhcc from an hcc link"
echo PASS

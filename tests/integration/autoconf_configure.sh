#!/usr/bin/env bash
# An autoconf-style ./configure with CC=hcc answers exactly as with the plain
# compiler (same config.h, every probe: --version, -v, -V, -E, conftest
# programs compiled, linked and run) and leaves no profile directories; the
# project then builds instrumented with make.
source "$(dirname "$0")/lib.sh"
HCC="$IT_BIN/hcc"
cp -r "$IT_SRC/tests/integration/autoconf-project" plain
cp -r "$IT_SRC/tests/integration/autoconf-project" hcc

step "./configure (plain cc)"
(cd plain && ./configure CC=cc > configure.out 2>&1) || { cat plain/configure.out plain/config.log; fail "plain configure"; }
step "./configure CC=hcc"
(cd hcc && ./configure CC="$HCC" > configure.out 2>&1) || { cat hcc/configure.out hcc/config.log; fail "configure CC=hcc"; }
cat hcc/configure.out
diff -u plain/config.h hcc/config.h || fail "config.h differs from the plain compiler's"
# Every answer the same, apart from the compiler's name in the messages and
# its banner: hcc without inputs runs c++ (--version says "c++ (Debian …)").
sed "s|$HCC|cc|g; /compiler version/d" hcc/configure.out | diff -u <(sed '/compiler version/d' plain/configure.out) - \
  || fail "configure answered differently"
grep -q "HAVE_NO_SUCH_HEADER_XYZ_H\|HAVE_NO_SUCH_FUNCTION_XYZ" hcc/config.h && fail "a negative check passed"
grep -q -- "-V" hcc/config.log || fail "config.log lacks the -V probe"
expect_no_profiles hcc
[ -z "$(ls hcc | grep '^hcc-')" ] || fail "profile left in the configure directory"

step "./configure CC=hcc-cc: identical to cc, banner included"
cp -r "$IT_SRC/tests/integration/autoconf-project" hcc-cc
(cd hcc-cc && ./configure CC="$IT_BIN/hcc-cc" > configure.out 2>&1) || { cat hcc-cc/configure.out; fail "configure CC=hcc-cc"; }
sed "s|$IT_BIN/hcc-cc|cc|g" hcc-cc/configure.out | diff -u plain/configure.out - || fail "configure CC=hcc-cc answered differently"
diff -u plain/config.h hcc-cc/config.h || fail "config.h (hcc-cc) differs"
expect_no_profiles hcc-cc

step "make (instrumented), run"
# prog.c's half_turn() is a one-liner the test looks for: every function
# instrumented (hcc takes --hcc-* options out of CFLAGS).
(cd hcc && make CFLAGS="-g -O2 --hcc-functions=all" > make.log 2>&1) || { cat hcc/make.log; fail "make"; }
run_profiled "$IT_WORK/prof" "" hcc/prog
grep -q "^sizeof(long)=8 half_turn=180.0$" "$IT_WORK/prof.out" || fail "prog output"
expect_regions "$IT_WORK/prof" '^main$' '^half_turn$'
echo PASS

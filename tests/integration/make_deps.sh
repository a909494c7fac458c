#!/usr/bin/env bash
# `make CC=hcc` on a Makefile with -MMD -MP: dependency files name the
# user's sources and headers (never hcc's temp copies or prelude); touching
# a header rebuilds exactly the objects that include it; the program's
# profile has every file's functions. Also per-language hcc-cc.
source "$(dirname "$0")/lib.sh"
HCC="$IT_BIN/hcc"
cp -r "$IT_SRC/tests/integration/make-project" proj
cd proj

step "make CC=hcc"
# The project's functions are one-liners the test counts: every function
# instrumented (--hcc-functions=auto, the default, would leave them out).
make CC="$HCC --hcc-functions=all" > make.log 2>&1 || { cat make.log; fail "make"; }
for d in obj/main.d obj/shapes.d obj/text.d; do
  [ -f "$d" ] || fail "$d not written"
  if grep -q "/hcc-[A-Za-z0-9]\{6\}/\|hcc/detail/" "$d"; then cat "$d"; fail "$d names hcc's files"; fi
done
# The rule, continuation lines joined: the user's source and headers as make sees them.
rule=$(sed -n '1,/[^\\]$/p' obj/main.d | tr -d '\\\n' | tr -s ' ')
[ "$rule" = "obj/main.o: src/main.c include/shapes.h include/text.h" ] || { cat obj/main.d; fail "obj/main.d: $rule"; }
grep -q "^include/shapes.h:" obj/shapes.d || { cat obj/shapes.d; fail "-MP phony rule missing"; }
run_profiled "$IT_WORK/prof" "" ./app
printf 'circle: 12.566\nsquare: 9.000\n' | diff -u - "$IT_WORK/prof.out" || fail "app output"
expect_regions "$IT_WORK/prof" '^main$' '^circle_area$' '^square_area$' '^print_area$'

step "make again: nothing to do"
make CC="$HCC --hcc-functions=all" > again.log 2>&1
grep -q " -c " again.log && { cat again.log; fail "a second make recompiled"; }

rebuilt() {  # the objects the last make compiled, sorted
  grep -o -- '-c src/[a-z]*\.c' "$1" | sed 's/-c src\///; s/\.c$//' | sort | tr '\n' ' '
}
step "touch include/shapes.h: main.o and shapes.o only"
sleep 1; touch include/shapes.h
make CC="$HCC --hcc-functions=all" > t1.log 2>&1 || { cat t1.log; fail "make after touch"; }
[ "$(rebuilt t1.log)" = "main shapes " ] || { cat t1.log; fail "rebuilt: $(rebuilt t1.log)"; }
step "touch include/text.h: main.o and text.o only"
sleep 1; touch include/text.h
make CC="$HCC --hcc-functions=all" > t2.log 2>&1 || { cat t2.log; fail "make after touch"; }
[ "$(rebuilt t2.log)" = "main text " ] || { cat t2.log; fail "rebuilt: $(rebuilt t2.log)"; }

step "hcc-cc: a C-only link through cc"
make clean > /dev/null
make CC="$IT_BIN/hcc-cc --hcc-functions=all" > cc.log 2>&1 || { cat cc.log; fail "make CC=hcc-cc"; }
run_profiled "$IT_WORK/prof-cc" "" ./app
expect_regions "$IT_WORK/prof-cc" '^main$' '^circle_area$'
echo PASS

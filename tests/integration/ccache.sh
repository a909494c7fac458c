#!/usr/bin/env bash
# ccache in front of hcc (CC="ccache hcc": the second build comes from the
# cache and is still instrumented) and behind it (CC="hcc ccache gcc":
# works, uncached since every instrumented copy has a fresh temp path).
source "$(dirname "$0")/lib.sh"
HCC="$IT_BIN/hcc"
command -v ccache > /dev/null || fail "ccache missing (scripts/install-deps.sh)"
export CCACHE_DIR="$IT_WORK/ccache" CCACHE_NOHASHDIR=1
cp -r "$IT_SRC/tests/integration/make-project" proj
cd proj

step "CC='ccache hcc', twice"
ccache -z > /dev/null
# One-line functions counted below: every function instrumented.
make CC="ccache $HCC --hcc-functions=all" > m1.log 2>&1 || { cat m1.log; fail "make 1"; }
make clean > /dev/null
make CC="ccache $HCC --hcc-functions=all" > m2.log 2>&1 || { cat m2.log; fail "make 2"; }
ccache -s -v > stats.txt 2>&1 || ccache -s > stats.txt
hits=$(sed -n 's/^ *Hits: *\([0-9]*\).*/\1/p' stats.txt | head -1)
[ "${hits:-0}" -ge 3 ] || { cat stats.txt; fail "expected 3 cache hits, got ${hits:-0}"; }
run_profiled "$IT_WORK/front" "" ./app
expect_regions "$IT_WORK/front" '^main$' '^circle_area$' '^print_area$'
if grep -q "/hcc-[A-Za-z0-9]\{6\}/" obj/*.d; then fail "dependency files from the cache name temp files"; fi

step "CC='hcc ccache gcc'"
make clean > /dev/null
make CC="$HCC --hcc-functions=all ccache gcc" > m3.log 2>&1 || { cat m3.log; fail "make 3"; }
grep -q "hcc: warning" m3.log && { cat m3.log; fail "hcc warned"; }
run_profiled "$IT_WORK/behind" "" ./app
expect_regions "$IT_WORK/behind" '^main$' '^square_area$'
echo PASS

#!/usr/bin/env bash
# Count mode against timing, whole program: tiny_calls.c (10^8 calls of a
# non-inlined function) built plain, timed (--hcc-functions=all) and counted
# (--hcc-functions=count:tiny), run in interleaved rounds; prints the median
# ns added per call for each, the two-rdtsc floor (bench_enter_exit's
# BM_Rdtsc2) and the ratios. Speed is only meaningful on a quiet machine:
# the script waits while the 1-minute load average is >= 0.5 and prints the
# load at start and end.
#
#   count_mode.sh [BUILD_DIR]            (default: ../../build)
#   ROUNDS=5 CC_LIST="gcc clang" count_mode.sh
#   BENCH_NO_WAIT=1 ROUNDS=1 count_mode.sh   # smoke check on a busy machine: no wait
#
# Instruction counts (repeatable under load) come from callgrind instead:
#   valgrind --tool=callgrind --callgrind-out-file=cg.out BUILD/tests/bench/bench_enter_exit \
#     --benchmark_filter='BM_CountedEnterExit$|BM_EnterExit$' --benchmark_min_time=0.05
#   callgrind_annotate --inclusive=yes cg.out | grep -E 'hcc_(count_)?(enter|exit)'
set -euo pipefail
# The pairs are measured timed: the default throttling would stop timing
# these hot, cheap functions after their first calls (runtime/core/auto_throttle.cpp).
export HCC_THROTTLE=off
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
hcc=$build/bin/hcc
bench=$build/tests/bench/bench_enter_exit
rounds=${ROUNDS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$(dirname "$0")/quiet_machine.sh"
load() { load_average; }
wait_quiet() { wait_for_quiet_machine; }
# Seconds of one run (wall clock, the program alone).
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "load at start: $(load)"
wait_quiet
floor_ns=$(HCC_OUTPUT_DIR="$work/prof-floor" "$bench" --benchmark_filter='BM_Rdtsc2$' \
  --benchmark_repetitions=$((rounds < 3 ? 3 : rounds)) \
  --benchmark_report_aggregates_only=true --benchmark_format=csv 2>/dev/null |
  awk -F, '/_median"?,/ { print $4 }')
echo "two rdtsc (BM_Rdtsc2, median CPU time): ${floor_ns} ns"

for cc in ${CC_LIST:-gcc clang}; do
  command -v "$cc" >/dev/null || continue
  $cc -O2 "$here/tiny_calls.c" -o "$work/plain-$cc"
  "$hcc" --hcc-compiler="$cc" --hcc-functions=all -O2 "$here/tiny_calls.c" -o "$work/timed-$cc"
  "$hcc" --hcc-compiler="$cc" --hcc-functions=all --hcc-functions=count:tiny -O2 "$here/tiny_calls.c" \
    -o "$work/counted-$cc"
  : >"$work/$cc.plain"; : >"$work/$cc.timed"; : >"$work/$cc.counted"
  for ((r = 0; r < rounds; r++)); do
    wait_quiet
    for kind in plain timed counted; do
      HCC_VERBOSE=0 HCC_OVERWRITE=1 HCC_OUTPUT_DIR="$work/prof-$cc-$kind" \
        seconds "$work/$kind-$cc" >>"$work/$cc.$kind"
    done
  done
  plain=$(median <"$work/$cc.plain")
  timed=$(median <"$work/$cc.timed")
  counted=$(median <"$work/$cc.counted")
  awk -v cc="$cc" -v p="$plain" -v t="$timed" -v c="$counted" -v f="${floor_ns:-0}" -v n="$rounds" 'BEGIN {
    calls = 1e8; tn = (t - p) / calls * 1e9; cn = (c - p) / calls * 1e9
    printf "%-6s medians of %d rounds: plain %.3f s, timed +%.2f ns/call, counted +%.2f ns/call", cc, n, p, tn, cn
    if (f > 0) printf ", floor %.2f ns: timed/floor %.2f, counted/floor %.2f", f, tn / f, cn / f
    printf "\n" }'
done
echo "load at end: $(load)"

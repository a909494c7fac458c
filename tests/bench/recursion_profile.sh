#!/usr/bin/env bash
# A recursive program's profile and dilation: tests/bench/pathtracer.cpp (a
# path tracer whose radiance() and diffuse_bounce() recurse into each other)
# built plain and through hcc with g++, run with the same arguments; prints
# the run times (median of RUNS), the call paths and the sizes of
# profile.cubex and summary.txt. Compare two runtimes by pointing
# LD_LIBRARY_PATH at another libhcc.so (it overrides the run path).
#   recursion_profile.sh <build-or-prefix> [RUNS] [width height samples max_bounces]
#   e.g. recursion_profile.sh build 3 128 96 48 24
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
hcc=${1:-$here/../../build}/bin/hcc
report=$(dirname "$hcc")/hcc-report
runs=${2:-3}
shift $(( $# >= 2 ? 2 : $# ))
args=${*:-96 72 16 10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g++ -O2 "$here/pathtracer.cpp" -o "$work/plain"
"$hcc" --hcc-compiler=g++ --hcc-functions=all -O2 "$here/pathtracer.cpp" -o "$work/hcc"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() {  # prints "wall user sys maxrss_kb" of one run of "$@"
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" > /dev/null
  cat "$work/t"
}
for i in $(seq "$runs"); do timed "$work/plain" $args; done > "$work/plain.times"
for i in $(seq "$runs"); do
  rm -rf "$work/prof"
  HCC_VERBOSE=0 HCC_OUTPUT_DIR="$work/prof" timed "$work/hcc" $args
done > "$work/hcc.times"
p_wall=$(cut -d' ' -f1 "$work/plain.times" | median)
p_user=$(cut -d' ' -f2 "$work/plain.times" | median)
h_wall=$(cut -d' ' -f1 "$work/hcc.times" | median)
h_user=$(cut -d' ' -f2 "$work/hcc.times" | median)
h_sys=$(cut -d' ' -f3 "$work/hcc.times" | median)
h_rss=$(cut -d' ' -f4 "$work/hcc.times" | median)
paths=$(sed -n 's/^Call paths: \([0-9]*\),.*/\1/p' "$work/prof/summary.txt")
echo "pathtracer $args, median of $runs runs"
echo "  plain: ${p_wall} s wall (${p_user} s user); hcc: ${h_wall} s wall (${h_user} s user, ${h_sys} s sys, ${h_rss} KB max RSS), ratio $(awk "BEGIN {printf \"%.1f\", $h_wall / $p_wall}")"
echo "  call paths: ${paths}; profile.cubex: $(stat -c %s "$work/prof/profile.cubex") bytes; summary.txt: $(stat -c %s "$work/prof/summary.txt") bytes"
/usr/bin/time -f "  hcc-report --suggest-filter: %e s, %M KB max RSS" "$report" --suggest-filter "$work/prof" > /dev/null

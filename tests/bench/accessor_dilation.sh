#!/bin/sh
# Dilation of a program with a tiny accessor called ~5*10^7 times
# (accessor_dilation.cpp): plain build, fully instrumented, instrumented with
# the filter hcc-report suggests applied at run time (HCC_FILTER), and
# rebuilt with it (--hcc-filter). The loop users follow: build, run,
# suggest, rebuild.
#
#   tests/bench/accessor_dilation.sh <build-dir> [runs=3] [n=400] [sweeps=600]
#
# Prints the median wall time of each variant and its ratio to the plain build,
# and the fixed start-up/exit cost (0 sweeps) the short plain run is sensitive to.
set -eu
build=$(cd "${1:?usage: $0 <build-dir> [runs] [n] [sweeps]}" && pwd)
runs=${2:-3}
n=${3:-400}
sweeps=${4:-600}
src=$(cd "$(dirname "$0")" && pwd)/accessor_dilation.cpp
hcc="$build/bin/hcc"
report="$build/bin/hcc-report"
work=$(mktemp -d "${TMPDIR:-/tmp}/hcc-dilation-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

c++ -O2 "$src" -o plain
# Fully instrumented: the default (--hcc-functions=auto) would leave the accessors out.
"$hcc" -O2 --hcc-functions=all "$src" -o full

# A first profile (a tenth of the sweeps is enough for the per-call
# figures), and the filter suggested from it (default rule).
HCC_VERBOSE=0 HCC_OUTPUT_DIR="$work/first" ./full "$n" "$(( sweeps / 10 + 1 ))" >/dev/null
"$report" --suggest-filter "$work/first" -o suggested.filt
"$hcc" -O2 --hcc-functions=all --hcc-filter=suggested.filt "$src" -o filtered

# Median wall time in seconds of "$@" over $runs runs (the fast variants
# get three times as many: the machine is shared and they are short).
median() {
  i=0
  : > times
  while [ "$i" -lt "$runs" ]; do
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000 ))" >> times
    i=$((i + 1))
  done
  sort -n times | awk '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.4f", m / 1e6}'
}

# One profile per run would pile up: each run replaces the last.
export HCC_VERBOSE=0 HCC_OUTPUT_DIR="$work/runs" HCC_OVERWRITE=1
tf=$(median ./full "$n" "$sweeps")
runs=$((runs * 3))
tp=$(median ./plain "$n" "$sweeps")
tr=$(HCC_FILTER=suggested.filt median ./full "$n" "$sweeps")
tc=$(median ./filtered "$n" "$sweeps")
ratio() { awk -v a="$1" -v b="$tp" 'BEGIN { printf "%.3f (%+.1f%%)", a / b, (a / b - 1) * 100 }'; }
echo "medians (fully instrumented: $((runs / 3)) runs, others: $runs), n=$n sweeps=$sweeps"
echo "plain                          $tp s"
echo "fully instrumented             $tf s  x$(ratio "$tf")"
echo "suggested filter, run time     $tr s  x$(ratio "$tr")"
echo "suggested filter, compile time $tc s  x$(ratio "$tc")"
# What does not grow with the work: hcc's start-up (clock calibration) and
# the profile written at exit. Measured with 0 sweeps and taken out of the
# compile-time figure to give the per-work dilation.
tp0=$(median ./plain "$n" 0)
tc0=$(median ./filtered "$n" 0)
awk -v tp="$tp" -v tc="$tc" -v tp0="$tp0" -v tc0="$tc0" 'BEGIN {
  printf "fixed cost (0 sweeps): plain %.4f s, filtered %.4f s\n", tp0, tc0
  printf "compile-time filter without the fixed cost: %+.1f%%\n", ((tc - tc0) / (tp - tp0) - 1) * 100 }'

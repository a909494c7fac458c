#!/bin/sh
# User-CPU dilation of --hcc-functions=all against the default (auto) and,
# optionally, against a build with the filter hcc-report --suggest-filter
# writes from the `all` profile. Paired rounds: each round runs plain, all,
# auto (and filtered) back to back; the figure is the median over rounds of
# each build's user CPU time over the plain build's in the same round.
# User CPU rather than wall time: the machine is shared.
#
#   tests/bench/functions_dilation.sh <build-dir> <source> [rounds=7] [--suggest] [-- program args]
set -eu
build=$(cd "${1:?usage: $0 <build-dir> <source> [rounds] [--suggest] [-- args]}" && pwd)
src=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
rounds=7
suggest=0
while [ $# -gt 0 ]; do
  case $1 in
    --suggest) suggest=1 ;;
    --) shift; break ;;
    *) rounds=$1 ;;
  esac
  shift
done
hcc="$build/bin/hcc"
work=$(mktemp -d "${TMPDIR:-/tmp}/hcc-functions-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
case $src in *.c) cc=cc ;; *) cc=c++ ;; esac
$cc -O2 "$src" -o plain -lm
"$hcc" -O2 --hcc-functions=all "$src" -o all -lm
"$hcc" -O2 "$src" -o auto -lm
variants="all auto"
if [ "$suggest" = 1 ]; then
  HCC_VERBOSE=0 HCC_OUTPUT_DIR="$work/first" ./all "$@" > /dev/null
  "$build/bin/hcc-report" --suggest-filter "$work/first" -o suggested.filt > suggest.txt
  grep '^# ' suggested.filt
  "$hcc" -O2 --hcc-functions=all --hcc-filter=suggested.filt "$src" -o filtered -lm
  variants="$variants filtered"
fi
export HCC_VERBOSE=0 HCC_OUTPUT_DIR="$work/runs" HCC_OVERWRITE=1
# user CPU seconds of one run of "$@"
cpu() {
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print("%.6f" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime)' "$@"
}
i=0
while [ "$i" -lt "$rounds" ]; do
  p=$(cpu ./plain "$@")
  line="$p"
  for v in $variants; do line="$line $(cpu ./$v "$@")"; done
  echo "$line" >> rounds
  i=$((i + 1))
done
python3 - "$variants" <<'PY'
import statistics, sys
names = sys.argv[1].split()
rows = [list(map(float, l.split())) for l in open("rounds")]
print("%d paired rounds, plain user CPU median %.3f s" % (len(rows), statistics.median(r[0] for r in rows)))
for k, n in enumerate(names, 1):
    print("  %-9s x%.2f (median of per-round user-CPU ratios to plain)" % (n, statistics.median(r[k] / r[0] for r in rows)))
PY

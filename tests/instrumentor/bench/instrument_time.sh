#!/usr/bin/env bash
# hcc-instrument's own cost next to the compile it precedes: medians of N runs
# (hyperfine) of
#   hcc-instrument -o OUT SRC -- FLAGS      (parse + rewrite)
#   CC FLAGS -c SRC                         (the plain build)
#   CC FLAGS -include inject.h -c OUT       (the instrumented build)
# Usage: instrument_time.sh <build-dir> [runs] [extra flags...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
shift $(( $# > 2 ? 2 : $# ))
extra="$*"
tool=$build/libexec/hcc/hcc-instrument
# The tool's own cost: no result cache, no precompiled preamble.
export HCC_CACHE=off
inject=$root/include/hcc/detail/inject.h
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v hyperfine >/dev/null || { echo "needs hyperfine"; exit 2; }
measure() { # compiler source flags...
  local cc=$1 src=$2; shift 2
  local flags="-O2 $* $extra" ext=${src##*.}
  [ -f "$src" ] || return 0
  "$tool" -o "$work/inst.$ext" "$src" -- $flags
  # As the driver does: the OpenMP prelude only for code that calls POMP2.
  local preludes="-include $inject"
  if grep -q POMP2_ "$work/inst.$ext"; then preludes="$preludes -include ${inject%.h}_openmp.h"; fi
  hyperfine -N --runs "$runs" --warmup 1 --export-json "$work/t.json" \
    "$tool -o $work/inst.$ext $src -- $flags" \
    "$cc $flags -c $src -o $work/plain.o" \
    "$cc $flags $preludes -c $work/inst.$ext -o $work/inst.o" >/dev/null
  python3 - "$work/t.json" "$(basename "$src")" "$cc $flags" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
tool, plain, inst = (x["median"] for x in r)
print(f"{sys.argv[2]} [{sys.argv[3]}]: hcc-instrument {tool*1e3:.0f} ms "
      f"(cpu {(r[0]['user']+r[0]['system'])*1e3:.0f}), plain -c {plain*1e3:.0f} ms "
      f"(cpu {(r[1]['user']+r[1]['system'])*1e3:.0f}); instrument/plain {tool/plain:.2f}; "
      f"instrumented -c {inst*1e3:.0f} ms; (instrument + instrumented -c)/plain {(tool+inst)/plain:.2f}")
PY
}
measure g++ "$here/heavy_headers8.cpp"
measure g++ "$root/tests/bench/heavy_headers.cpp"
measure gcc "$root/samples/matmul/matmul.c" -fopenmp

#!/usr/bin/env bash
# Whole-program overhead: tiny_calls.c (10^8 calls of a non-inlined function)
# built plain and through hcc, each with gcc and clang underneath, timed with
# hyperfine (median of 10 runs). Usage: whole_program.sh <prefix-or-build-dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
hcc=${1:-$here/../../build}/bin/hcc
work=$(mktemp -d)
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)"; exit 2; }
for cc in gcc clang; do
  $cc -O2 "$here/tiny_calls.c" -o "$work/plain-$cc"
  # every function: tiny() is what is measured (auto would leave it out)
  "$hcc" --hcc-compiler=$cc --hcc-functions=all -O2 "$here/tiny_calls.c" -o "$work/hcc-$cc"
  HCC_VERBOSE=0 HCC_OVERWRITE=1 HCC_OUTPUT_DIR="$work/prof-$cc" hyperfine -N --runs 10 --warmup 1 \
    --export-json "$work/$cc.json" "$work/plain-$cc" "$work/hcc-$cc" >/dev/null
  python3 - "$work/$cc.json" "$cc" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
plain, inst = r[0]["median"], r[1]["median"]
calls = 1e8
print(f"{sys.argv[2]:6s} plain {plain*1e3:8.1f} ms   hcc {inst*1e3:8.1f} ms   "
      f"ratio {inst/plain:5.2f}   added {(inst-plain)/calls*1e9:5.1f} ns per call")
PY
done
rm -rf "$work"

#!/usr/bin/env bash
# Build time through hcc versus the plain compiler (-O2 -c), median of N runs,
# for the samples and a file behind heavy standard headers.
# Usage: build_time.sh <prefix-or-build-dir> [runs]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
hcc=${1:-$root/build}/bin/hcc
runs=${2:-7}
work=$(mktemp -d)
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)"; exit 2; }
measure() { # compiler source
  local cc=$1 src=$2
  hyperfine -N --runs "$runs" --warmup 1 --export-json "$work/t.json" \
    "$cc -O2 -c $src -o $work/plain.o" "$hcc --hcc-compiler=$cc -O2 -c $src -o $work/hcc.o" >/dev/null
  python3 - "$work/t.json" "$cc" "$(basename "$src")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
plain, inst = r[0]["median"], r[1]["median"]
print(f"{sys.argv[3]:20s} {sys.argv[2]:8s} plain {plain*1e3:7.0f} ms   hcc {inst*1e3:7.0f} ms   ratio {inst/plain:4.2f}")
PY
}
for src in "$root/samples/matmul/matmul.c"; do measure gcc "$src"; measure clang "$src"; done
for src in "$root/samples/cpp/particles.cpp" "$here/heavy_headers.cpp"; do measure g++ "$src"; measure clang++ "$src"; done
rm -rf "$work"

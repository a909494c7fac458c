#!/usr/bin/env bash
# The early start (instrumentor/driver/early_start.hpp) on and off: each
# round compiles a file plainly, through hcc with HCC_EARLY_START=off and
# through hcc by default, in a random order, each hcc compile with an empty
# cache directory (so the instrumentor parses: the first build of a file).
# Prints the medians (ms) and the medians of the paired ratios, wall clock.
# Usage: early_start.sh <prefix-or-build-dir> [rounds] [file compiler …]
#   default: 11 rounds; matmul.c with gcc and clang, particles.cpp and
#   heavy_headers.cpp with g++ and clang++.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
hcc=${1:-$root/build}/bin/hcc
rounds=${2:-11}
shift $(( $# > 2 ? 2 : $# ))
[ -x "$hcc" ] || { echo "no hcc at $hcc" >&2; exit 2; }
exec python3 - "$hcc" "$rounds" "$root" "$here" "$@" <<'PY'
import os, random, shutil, statistics, subprocess, sys, tempfile, time

hcc, rounds, root, here, rest = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
files = {"matmul.c": os.path.join(root, "samples/matmul/matmul.c"),
         "particles.cpp": os.path.join(root, "samples/cpp/particles.cpp"),
         "heavy_headers.cpp": os.path.join(here, "heavy_headers.cpp")}
pairs = list(zip(rest[0::2], rest[1::2])) or [
    ("matmul.c", "gcc"), ("matmul.c", "clang"), ("particles.cpp", "g++"), ("particles.cpp", "clang++"),
    ("heavy_headers.cpp", "g++"), ("heavy_headers.cpp", "clang++")]
work = tempfile.mkdtemp(prefix="hcc-early-start-")

def timed(cmd, env):
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start

for name, cc in pairs:
    src = shutil.copy(files.get(name, name), work)
    out = os.path.join(work, "out.o")
    rows = []
    for _ in range(rounds):
        row = {}
        kinds = ["plain", "off", "on"]
        random.shuffle(kinds)
        for kind in kinds:
            env = dict(os.environ)
            if kind == "plain":
                row[kind] = timed([cc, "-O2", "-c", src, "-o", out], env)
                continue
            env["HCC_CACHE_DIR"] = os.path.join(work, "cache-" + kind)
            shutil.rmtree(env["HCC_CACHE_DIR"], ignore_errors=True)
            if kind == "off":
                env["HCC_EARLY_START"] = "off"
            row[kind] = timed([hcc, "--hcc-compiler=" + cc, "-O2", "-c", src, "-o", out], env)
        rows.append(row)
    med = {k: statistics.median(r[k] for r in rows) * 1000 for k in rows[0]}
    ratio = lambda a, b: statistics.median(r[a] / r[b] for r in rows)
    print(f"{name:18} {cc:8} plain {med['plain']:6.0f} ms | early start off {med['off']:6.0f} ms "
          f"{ratio('off', 'plain'):.2f} | on {med['on']:6.0f} ms {ratio('on', 'plain'):.2f} | "
          f"on/off {ratio('on', 'off'):.2f}", flush=True)
shutil.rmtree(work, ignore_errors=True)
PY

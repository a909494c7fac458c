#!/usr/bin/env bash
# Times guard_shapes.c's four shapes of one memory-bound function (see its
# header): plain; the guard calls as nops with a call's clobbers (what a
# function whose count stopped runs today); nops that clobber nothing; a
# register-keeping guard with its test inline. No runtime is involved: the
# figures are what the shape of the code costs. Each round runs every shape
# once (interleaved) after waiting for a quiet machine; a run's figure is its
# user + system CPU time; the table gives each shape's median ratio to plain
# in the same round, and the spread. Any output that differs stops it.
#   tests/bench/guard_shapes.sh [ROUNDS [CALLS [TABLE_MiB]]]   (7 30000000 256)
# Environment: GUARD_SHAPES_CC (default gcc: the kept-register shape needs
# GCC's -fipa-ra), BENCH_NO_WAIT=1 (no waiting: smoke runs only).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=quiet_machine.sh
. "$here/quiet_machine.sh"
rounds=${1:-7} calls=${2:-30000000} mib=${3:-256}
cc=${GUARD_SHAPES_CC:-gcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for s in 0 1 2 3; do "$cc" -O2 -DSHAPE=$s -I"$here" "$here/guard_shapes.c" -o "$work/shape$s"; done
echo "guard_shapes.sh: $rounds rounds, $calls calls, $mib MiB, $cc; load at start: $(load_average)"
python3 - "$work" "$rounds" "$calls" "$mib" <<'PY'
import os, resource, statistics, subprocess, sys, time
work, rounds, calls, mib = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
names = ["plain", "nops, a call's clobbers", "nops, no clobbers", "kept registers, test inline"]
cpu = [[] for _ in names]
expected = None
for r in range(rounds):
    if os.environ.get("BENCH_NO_WAIT") != "1":
        while os.getloadavg()[0] >= 0.5:
            print(f"load {os.getloadavg()[0]:.2f}: waiting for < 0.5", file=sys.stderr)
            time.sleep(20)
    for s in range(len(names)):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([f"{work}/shape{s}", calls, mib], capture_output=True, text=True, check=True).stdout
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if expected is None:
            expected = out
        elif out != expected:
            sys.exit(f"guard_shapes.sh: shape {s} printed {out!r}, plain {expected!r}")
        cpu[s].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
print(f"{'shape':30s} {'median CPU s':>12s} {'ratio to plain':>15s}  spread")
for s, name in enumerate(names):
    ratios = [c / p for c, p in zip(cpu[s], cpu[0])]
    print(f"{name:30s} {statistics.median(cpu[s]):12.3f} {statistics.median(ratios):14.3f}x  "
          f"{min(ratios):.3f}-{max(ratios):.3f}")
PY
echo "load at end: $(load_average)"

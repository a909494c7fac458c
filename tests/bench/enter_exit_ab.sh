#!/usr/bin/env bash
# The enter/exit pair before and after a change to the runtime: two builds'
# bench_enter_exit run in interleaved rounds (A B A B …) on a quiet machine,
# medians and ratios printed. Waits while the 1-minute load average is 0.5 or
# more, and prints it at the start and the end.
#   tests/bench/enter_exit_ab.sh OLD/bench_enter_exit NEW/bench_enter_exit [ROUNDS]
# (build the old one with: git worktree add /tmp/old REV && cmake -S /tmp/old
#  -B /tmp/old/build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
#  cmake --build /tmp/old/build --target bench_enter_exit; or, when only
#  libhcc.so changed, a two-line script as OLD that runs the new binary with
#  LD_LIBRARY_PATH=OLD_BUILD/lib: the binary's RUNPATH gives way to it)
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OLD_BENCH NEW_BENCH [ROUNDS]" >&2; exit 2; }
old=$1 new=$2 rounds=${3:-5}
filter='BM_Rdtsc2$|BM_EnterExit$|BM_EnterExitInRecursion$|BM_ExcludedEnterExit$'
# BENCH_NO_WAIT=1: no waiting (a smoke run; its figures mean nothing).
. "$(dirname "$0")/quiet_machine.sh"
wait_for_quiet_machine
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for r in $(seq "$rounds"); do
  for side in old new; do
    bin=${!side}
    "$bin" --benchmark_filter="$filter" --benchmark_min_time=0.5 --benchmark_format=csv 2>/dev/null |
      grep '^"BM' | sed "s/^/$side,/" >>"$rows"
  done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$rows" "$rounds" <<'PY'
import collections, statistics, sys
cpu = collections.defaultdict(list)
for line in open(sys.argv[1]):
    side, name, _iters, _real, cpu_ns = line.split(',')[:5]
    cpu[(side, name.strip('"'))].append(float(cpu_ns))
print(f"CPU time per pair, median of {sys.argv[2]} interleaved rounds")
for name in ["BM_Rdtsc2", "BM_EnterExit", "BM_EnterExitInRecursion", "BM_ExcludedEnterExit"]:
    a, b = statistics.median(cpu[("old", name)]), statistics.median(cpu[("new", name)])
    print(f"  {name:24s} old {a:6.2f} ns  new {b:6.2f} ns  new/old {b / a:.3f}")
PY

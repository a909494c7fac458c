#!/usr/bin/env bash
# docs/mpi.md's table of the merge at 1 … 131 072 ranks: rank 0's busy time,
# CPU time, peak RSS and the file's size per location mode (HCC_LOCATIONS),
# from build/bin/bench_mpi_rank0 (rank 0 in a process of its own, the other
# ranks simulated beside it; tests/mpi/bench_rank0.cpp). ROUNDS runs per
# cell, interleaved over the modes; each rank count starts on a quiet
# machine (the benchmark itself keeps both cores busy, so waiting before
# every run would wait for its own load); the median and the spread
# (min–max) printed.
#   tests/bench/mpi_merge_table.sh [BUILD_DIR] [ROUNDS] [RANKS...]
set -euo pipefail
build=${1:-build} rounds=${2:-3}
shift $(( $# >= 2 ? 2 : $# ))
sizes=${*:-1 64 1024 8192 32768 131072}
bench=$build/bin/bench_mpi_rank0
[ -x "$bench" ] || { echo "no $bench: build the tree first" >&2; exit 2; }
. "$(dirname "$0")/quiet_machine.sh"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
echo "load at start: $(load_average)"
for n in $sizes; do
  wait_for_quiet_machine
  echo "$n ranks: load $(load_average)" >&2
  for r in $(seq "$rounds"); do
    for mode in all process summary; do
      "$bench" "$n" "$mode" >>"$rows"
    done
  done
done
echo "load at end: $(load_average)"
python3 - "$rows" <<'PY'
import re, statistics, sys
cells = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+)\s+(\d+) ranks\s+(\d+) call paths\s+(\d+) columns\s+rank 0: busy\s+([\d.]+) s\s+cpu\s+([\d.]+) s"
                 r"\s+peak RSS\s+([\d.]+) MiB\s+file\s+([\d.]+) MiB", line)
    if m:
        cells.setdefault((int(m[2]), m[1]), []).append([float(x) for x in m.group(5, 6, 7, 8)])
def cell(vals, i, fmt):
    xs = [v[i] for v in vals]
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(min(xs))}–{fmt.format(max(xs))})"
print("| ranks | mode | rank 0 busy s | rank 0 CPU s | rank 0 peak RSS MiB | file MiB |")
print("|---:|---|---:|---:|---:|---:|")
for (n, mode), vals in sorted(cells.items(), key=lambda kv: (kv[0][0], ["all", "process", "summary"].index(kv[0][1]))):
    print(f"| {n} | {mode} | {cell(vals, 0, '{:.3f}')} | {cell(vals, 1, '{:.3f}')} | {cell(vals, 2, '{:.1f}')} | "
          f"{statistics.median(v[3] for v in vals):.1f} |")
PY

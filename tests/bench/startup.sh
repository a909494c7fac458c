#!/usr/bin/env bash
# Start-up plus exit of an instrumented program, and the link of a trivial
# program, through hcc against plain: an empty program (serial, and with one
# empty OpenMP parallel region) built with gcc and with hcc, run in
# interleaved rounds (plain, hcc, plain-omp, hcc-omp, …); medians and 90th
# percentiles of wall time, and the median CPU time (user + system) of each.
# The hcc runs write their profile (into a scratch directory), as a user's
# do. Target (issue 32): hcc's start plus exit at most 10 ms above plain.
#   tests/bench/startup.sh [BUILD_DIR] [ROUNDS] [LINK_ROUNDS]
# Waits while the 1-minute load average is 0.5 or more and prints it at the
# start and the end; BENCH_NO_WAIT=1 skips the wait (a smoke check
# only: figures from a busy machine mean nothing).
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
rounds=${2:-200}
link_rounds=${3:-30}
hcc="$build/bin/hcc"
[ -x "$hcc" ] || { echo "no $hcc: build hcc first" >&2; exit 2; }
. "$(dirname "$0")/quiet_machine.sh"
wait_for_quiet_machine
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/empty.c" <<'C'
int main(void) { return 0; }
C
cat >"$work/empty_omp.c" <<'C'
int main(void) {
#pragma omp parallel
  {
  }
  return 0;
}
C
gcc -O2 "$work/empty.c" -o "$work/plain"
gcc -O2 -fopenmp "$work/empty_omp.c" -o "$work/plain_omp"
"$hcc" --hcc-compiler=gcc -O2 "$work/empty.c" -o "$work/hcc"
"$hcc" --hcc-compiler=gcc -O2 -fopenmp "$work/empty_omp.c" -o "$work/hcc_omp"
gcc -O2 -c "$work/empty.c" -o "$work/empty.o"
echo "libhcc.so: $(ldd "$build/lib/libhcc.so" | wc -l) lines of ldd"

python3 - "$work" "$rounds" "$link_rounds" "$hcc" <<'PY'
import os, statistics, subprocess, sys, time
work, rounds, link_rounds, hcc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
out = os.path.join(work, "out")
os.makedirs(out)
# The measured program's own environment only: its profile goes to a scratch
# directory (replaced each run) and it prints nothing.
env = {k: v for k, v in os.environ.items() if not k.startswith("HCC_")}
env_hcc = dict(env, HCC_OUTPUT_DIR=out, HCC_OVERWRITE="1", HCC_VERBOSE="0")

def timed(argv, e):
    t0 = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, e)
    _, status, ru = os.wait4(pid, 0)
    wall = (time.perf_counter_ns() - t0) * 1e-6
    if status != 0:
        sys.exit(f"{argv} failed: status {status}")
    return wall, (ru.ru_utime + ru.ru_stime) * 1e3

def p90(xs):
    return sorted(xs)[int(0.9 * (len(xs) - 1))]

progs = [("plain", env), ("hcc", env_hcc), ("plain_omp", env), ("hcc_omp", env_hcc)]
wall = {p: [] for p, _ in progs}
cpu = {p: [] for p, _ in progs}
for p, e in progs:  # warm the page cache
    timed([os.path.join(work, p)], e)
for _ in range(rounds):
    for p, e in progs:
        w, c = timed([os.path.join(work, p)], e)
        wall[p].append(w)
        cpu[p].append(c)
print(f"start + exit, {rounds} interleaved rounds (ms): median / p90 wall, median CPU")
for p, _ in progs:
    print(f"  {p:10s} {statistics.median(wall[p]):7.2f} / {p90(wall[p]):7.2f}   cpu {statistics.median(cpu[p]):6.2f}")
for a, b in (("plain", "hcc"), ("plain_omp", "hcc_omp")):
    d = statistics.median(wall[b]) - statistics.median(wall[a])
    print(f"  {b} - {a}: {d:+.2f} ms median wall ({'within' if d <= 10 else 'ABOVE'} the 10 ms target)")

obj = os.path.join(work, "empty.o")
links = {"gcc": ["gcc", obj, "-o", os.path.join(work, "linked_plain")],
         "hcc": [hcc, "--hcc-compiler=gcc", obj, "-o", os.path.join(work, "linked_hcc")]}
lt = {k: [] for k in links}
for _ in range(link_rounds):
    for k, argv in links.items():
        t0 = time.perf_counter_ns()
        subprocess.run(argv, env=env, check=True)
        lt[k].append((time.perf_counter_ns() - t0) * 1e-6)
print(f"link of a trivial object, {link_rounds} interleaved rounds (ms): median / p90 wall")
for k in links:
    print(f"  {k:10s} {statistics.median(lt[k]):7.2f} / {p90(lt[k]):7.2f}")
PY
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"

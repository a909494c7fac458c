#!/usr/bin/env bash
# What sampling on by default costs a whole program: pathtracer.cpp (a C++
# code of small functions) built through hcc with the default size policy,
# run with HCC_SAMPLING=off and =on (200 Hz) in interleaved rounds; CPU time
# (user+sys) of each run, medians, and the samples the profile took.
# A short run (the default image, ~20 ms) shows the fixed cost (timers,
# libdw loaded to name sampled functions at exit); a longer one the cost per
# CPU second.
#   sampling_default_cost.sh [BUILD_DIR] [ROUNDS] ["W H SAMPLES"]   (BENCH_NO_WAIT=1: smoke run)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
rounds=${2:-7}
args=${3:-128 96 16}
. "$here/quiet_machine.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/hcc" --hcc-compiler=g++ -O2 "$here/pathtracer.cpp" -o "$work/app" -lpthread
wait_for_quiet_machine
echo "load at start: $(load_average)"
python3 - "$work" "$rounds" "$build/bin/hcc-report" $args <<'PY'
import json, os, resource, statistics, subprocess, sys
work, rounds, report, args = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
cpu = {"off": [], "on": []}
samples = []
for r in range(rounds):
    for mode in ("off", "on"):
        out = f"{work}/out-{mode}-{r}"
        env = dict(os.environ, HCC_SAMPLING=mode, HCC_OUTPUT_DIR=out, HCC_VERBOSE="0")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([f"{work}/app", *args], env=env, check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[mode].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if mode == "on":
            j = json.loads(subprocess.run([report, "--json", out], check=True, capture_output=True, text=True).stdout)
            samples.append(sum(sum(c["values"]["samples"]["excl"]) for c in j["callpaths"] if "samples" in c["values"]))
off, on = statistics.median(cpu["off"]), statistics.median(cpu["on"])
print(f"pathtracer {' '.join(args)}: CPU time, median of {rounds} interleaved rounds: HCC_SAMPLING=off {off:.3f} s, on {on:.3f} s, "
      f"added {100 * (on - off) / off:+.1f} %; samples per run (median) {statistics.median(samples):.0f}")
PY
echo "load at end: $(load_average)"

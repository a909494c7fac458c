#!/bin/sh
# The dilation table: CPU time of hcc builds of the stand-ins in
# tests/bench/standins (each the shape of a real scientific code that the
# default build dilated or misread; the list is standins.sh's) against plain
# builds, with the truth table's verdict (truth_table.sh) as a last column.
#
#   tests/bench/dilation_table.sh [BUILD] [ROUNDS]   (default: build/, 5 rounds)
#
# Builds of each stand-in:
#   plain    cc/c++ -O2
#   default  hcc -O2 (--hcc-functions=auto)
#   plan     after one run with its plan: the default build run once, then
#            `hcc-report --plan PROFILE > hcc.plan` and a rebuild with
#            HCC_PLAN=hcc.plan; when this hcc-report has no --plan:
#            `hcc-report --suggest-filter` and a rebuild with --hcc-filter=
#            (the script says which it used)
#   sampled  hcc -O2 --hcc-functions=none: sampling alone (on by default),
#            what hcc costs a program it measures only by its samples
#   all      hcc -O2 --hcc-functions=all
# ROUNDS interleaved rounds: each round runs every build of every stand-in
# once. The figure of a run is its user + system CPU time (getrusage of the
# child; CPU rather than wall time because the machine is shared, and the
# blocking stand-in's waits are not work); OpenMP runs use one thread
# (OMP_NUM_THREADS=1) so CPU times compare. Ratios are medians of the
# per-round ratios to the same round's plain run. Every run's output must be
# plain's, or the script stops with both outputs.
#
# The truth column: truth_table.sh run after the rounds, on the same build
# (TRUTH_ROUNDS rounds, default 3, or ROUNDS when fewer), its verdict per
# stand-in ("pass"/"FAIL" and the largest gap in points on the rows perf
# gives >= 10%); its whole output is printed below the table. "n/a" when
# perf cannot record on this machine. BENCH_TRUTH=0 leaves it out.
#
# Waits before each round while the 1-minute load average is >= 0.5
# (quiet_machine.sh) and prints the load at start and end.
#   BENCH_NO_WAIT=1  no waiting (smoke runs: figures mean nothing)
#   BENCH_SMALL=1    tiny problem sizes (the ctest smoke test)
# Profiles go to a scratch directory, removed at the end.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
rounds=${2:-5}
case $rounds in '' | *[!0-9]* | 0) echo "$0: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2 ;; esac
hcc=$build/bin/hcc
report=$build/bin/hcc-report
for tool in "$hcc" "$report"; do
  [ -x "$tool" ] || { echo "$0: no $tool (build hcc first, or pass its build directory)" >&2; exit 2; }
done
. "$here/quiet_machine.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/hcc-dilation-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
# standins and describe NAME (src, lang, flags, args, small).
. "$here/standins.sh"

if "$report" --help 2>&1 | grep -q -- '--plan'; then
  use_plan=1
  plan_kind="hcc-report --plan + HCC_PLAN"
else
  use_plan=0
  plan_kind="hcc-report --suggest-filter + --hcc-filter= (this hcc-report has no --plan)"
fi
echo "hcc: $hcc"
echo "after-plan build: $plan_kind"
echo "load at start: $(load_average)"

# build_one NAME: the five builds of one stand-in into $work/NAME; the
# commands' output goes to build.log, printed when one fails.
build_one() {
  describe "$1"
  dir=$work/$1
  mkdir -p "$dir"
  case $lang in c) cc=cc ;; *) cc=c++ ;; esac
  # shellcheck disable=SC2086 # flags and args are word lists
  if ! {
    $cc -O2 "$src" -o "$dir/plain" $flags &&
      "$hcc" -O2 --hcc-functions=auto "$src" -o "$dir/default" $flags &&
      "$hcc" -O2 --hcc-functions=all "$src" -o "$dir/all" $flags &&
      "$hcc" -O2 --hcc-functions=none "$src" -o "$dir/sampled" $flags &&
      # The one run the plan comes from.
      OMP_NUM_THREADS=1 HCC_VERBOSE=0 HCC_OUTPUT_DIR="$dir/first" "$dir/default" $args > /dev/null &&
      if [ "$use_plan" = 1 ]; then
        "$report" --plan "$dir/first" > "$dir/hcc.plan" &&
          HCC_PLAN="$dir/hcc.plan" "$hcc" -O2 "$src" -o "$dir/plan" $flags
      else
        "$report" --suggest-filter "$dir/first" -o "$dir/suggested.filt" &&
          "$hcc" -O2 --hcc-filter="$dir/suggested.filt" "$src" -o "$dir/plan" $flags
      fi
  } > "$dir/build.log" 2>&1; then
    echo "$0: building $1 failed:" >&2
    cat "$dir/build.log" >&2
    return 1
  fi
}

# Builds, two stand-ins at a time (standins.sh).
# shellcheck disable=SC2086 # a list of names
build_in_two_lanes $standins || exit 1
for name in $standins; do
  describe "$name"
  printf '%s %s\n' "$name" "$args" >> "$work/manifest"
  # What the plan build left out, for the reader.
  if [ "$use_plan" = 0 ]; then
    echo "$name: the filter excludes $(grep -c '^ *exclude' "$work/$name/suggested.filt" || true) region(s)"
  else
    echo "$name: the plan leaves out $(grep -c '^ *EXCLUDE' "$work/$name/hcc.plan" || true), counts $(grep -c '^ *COUNT' "$work/$name/hcc.plan" || true) region(s)"
  fi
done

# One round: every build of every stand-in once, stand-in by stand-in.
cat > "$work/round.py" <<'PY'
import os, subprocess, sys
work, round_no = sys.argv[1], sys.argv[2]
variants = ["plain", "default", "plan", "sampled", "all"]
with open(os.path.join(work, "manifest")) as manifest, open(os.path.join(work, "results"), "a") as results:
    for line in manifest:
        name, *args = line.split()
        d = os.path.join(work, name)
        outputs = {}
        for v in variants:
            env = dict(os.environ, OMP_NUM_THREADS="1", HCC_VERBOSE="0", HCC_OVERWRITE="1",
                       HCC_OUTPUT_DIR=os.path.join(work, "runs", name, v))
            exe = os.path.join(d, v)
            out_path = os.path.join(d, "out-" + v)
            with open(out_path, "wb") as out:
                child = subprocess.Popen([exe] + args, stdout=out, env=env)
                _, status, usage = os.wait4(child.pid, 0)
            code = os.waitstatus_to_exitcode(status)
            if code != 0:
                sys.exit("%s: the %s build exited with %d (round %s)" % (name, v, code, round_no))
            outputs[v] = open(out_path, "rb").read()
            if outputs[v] != outputs["plain"]:
                sys.exit("%s: the %s build's output differs from plain's (round %s)\n  plain: %r\n  %s: %r"
                         % (name, v, round_no, outputs["plain"], v, outputs[v]))
            results.write("%s %s %s %.6f\n" % (round_no, name, v, usage.ru_utime + usage.ru_stime))
        first = os.path.join(d, "out-plain-round-1")
        if round_no == "1":
            open(first, "wb").write(outputs["plain"])
        elif open(first, "rb").read() != outputs["plain"]:
            sys.exit("%s: plain's output changed between rounds 1 and %s" % (name, round_no))
PY

i=1
while [ "$i" -le "$rounds" ]; do
  wait_for_quiet_machine
  python3 "$work/round.py" "$work" "$i"
  i=$((i + 1))
done

# The truth column: truth_table.sh's "truth: NAME max_gap=X ... verdict=V"
# lines (its exit status 77: perf cannot record here).
: > "$work/truth.out"
truth_note=
if [ "${BENCH_TRUTH:-}" != 0 ]; then
  truth_rounds=${TRUTH_ROUNDS:-3}
  [ "$rounds" -lt "$truth_rounds" ] && [ -z "${TRUTH_ROUNDS:-}" ] && truth_rounds=$rounds
  truth_status=0
  sh "$here/truth_table.sh" "$build" "$truth_rounds" > "$work/truth.out" || truth_status=$?
  case $truth_status in
    0) truth_note="truth: tests/bench/truth_table.sh $build $truth_rounds (printed below the table)" ;;
    77) truth_note="truth: n/a, $(head -n 1 "$work/truth.out")" ;;
    *)
      echo "$0: truth_table.sh failed (exit status $truth_status):" >&2
      cat "$work/truth.out" >&2
      exit 1
      ;;
  esac
else
  truth_note="truth: not run (BENCH_TRUTH=0)"
fi

python3 - "$work/results" "$rounds" "$standins" "$work" "$use_plan" <<'PY'
import collections, os, re, statistics, sys
path, rounds, names, work, use_plan = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4], sys.argv[5] == "1"
# truth_table.sh's verdicts: NAME -> "pass 2.1" / "FAIL 63.0".
truth = {}
for line in open(os.path.join(work, "truth.out")):
    m = re.match(r"truth: (\S+) max_gap=([0-9.]+) .* verdict=(pass|fail)$", line.strip())
    if m:
        truth[m.group(1)] = "%s %s" % ("pass" if m.group(3) == "pass" else "FAIL", m.group(2))
cpu = collections.defaultdict(dict)  # (name, variant) -> round -> seconds
for line in open(path):
    r, name, v, s = line.split()
    cpu[(name, v)][int(r)] = float(s)
# issue 41: first default run <= 1.15x, after its plan <= 1.05x, sampling alone <= 1.02x
targets = {"default": 1.15, "plan": 1.05, "sampled": 1.02}
variants = ["default", "plan", "sampled", "all"]
print("%d interleaved round(s); CPU = user + system; ratio = median over rounds of (build's CPU / plain's CPU in the same round)" % rounds)
print("targets: default <= %.2fx, after plan <= %.2fx, sampled <= %.2fx (* = over target)" % (targets["default"], targets["plan"], targets["sampled"]))
print("truth: truth_table.sh's verdict on the default build's profile against perf of plain (-O2 -fno-inline"
      " builds), and the largest gap in points on the rows perf gives >= 10% (target: <= 5, same top row)")
print("%-15s %9s %9s %9s %9s %9s  %s" % ("stand-in", "plain s", "default", "plan", "sampled", "all", "truth"))
for name in names:
    plain = cpu[(name, "plain")]
    if len(plain) != rounds:
        sys.exit("%s: %d plain runs recorded, expected %d" % (name, len(plain), rounds))
    cells = []
    for v in variants:
        ratios = [cpu[(name, v)][r] / plain[r] for r in plain if plain[r] > 0]
        if not ratios:  # a smoke run too short for the CPU clock
            cells.append("%9s" % "n/a")
            continue
        ratio = statistics.median(ratios)
        mark = "*" if v in targets and ratio > targets[v] else " "
        cells.append("%7.2fx%s" % (ratio, mark))
    print("%-15s %9.3f %s  %s" % (name, statistics.median(plain.values()), " ".join(cells), truth.get(name, "n/a")))
# A busy neighbour or the host's memory only ever adds time: each build's
# fastest run against plain's fastest, and the per-round ratios' spread, show
# how much of a median is the machine (memory-bound stand-ins swing most).
print("fastest run / plain's fastest, and [lowest .. highest] per-round ratio")
print("%-15s %9s %s" % ("stand-in", "plain min", " ".join("%21s" % v for v in variants)))
for name in names:
    plain = cpu[(name, "plain")]
    cells = []
    for v in variants:
        runs = cpu[(name, v)]
        ratios = [runs[r] / plain[r] for r in plain if plain[r] > 0 and r in runs]
        if not ratios or min(plain.values()) <= 0:
            cells.append("%21s" % "n/a")
            continue
        cells.append("%6.2fx [%5.2f..%5.2f]" % (min(runs.values()) / min(plain.values()), min(ratios), max(ratios)))
    print("%-15s %9.3f %s" % (name, min(plain.values()), " ".join(cells)))
# The plan's own forecast (its "estimated saving ... per visit) S s of T s
# measured" line) against what the plan build then took: predicted
# plan/default = (T - S) / T, measured = median over rounds of plan CPU /
# default CPU in the same round (issue: within 25 %).
if use_plan:
    print("plan forecast: predicted plan/default CPU from the plan's estimated saving, against the measured median")
    for name in names:
        text = open(os.path.join(work, name, "hcc.plan")).read()
        m = re.search(r"per visit\) ([0-9.]+) s of ([0-9.]+) s measured", text)
        default, plan = cpu[(name, "default")], cpu[(name, "plan")]
        ratios = [plan[r] / default[r] for r in default if default[r] > 0 and r in plan]
        if not m or not ratios or float(m.group(2)) <= 0:
            print("%-15s %s" % (name, "n/a"))
            continue
        predicted = (float(m.group(2)) - float(m.group(1))) / float(m.group(2))
        measured = statistics.median(ratios)
        print("%-15s predicted %.2fx, measured %.2fx (%+.0f%%)" % (name, predicted, measured, 100 * (predicted / measured - 1)))
PY
echo "$truth_note"
if [ -s "$work/truth.out" ] && [ "${truth_status:-1}" = 0 ]; then
  echo
  echo "=== the truth table (tests/bench/truth_table.sh) ==="
  cat "$work/truth.out"
fi
echo "load at end: $(load_average)"

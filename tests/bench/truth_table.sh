#!/bin/sh
# The truth table (issue 41): does hcc's default profile say where the time
# goes? For each stand-in (standins.sh), each function's exclusive share of
# the run by `perf record -e cpu-clock` of the plain build, against its share
# of exclusive time in the profile of hcc's default build, side by side.
#
#   tests/bench/truth_table.sh [BUILD] [ROUNDS]   (default: build/, 3 rounds)
#
# Builds of each stand-in, both with the same flags so they are the same code:
#   plain   cc/c++ -O2 -fno-inline
#   hcc     BUILD/bin/hcc -O2 -fno-inline (no hcc option)
# -fno-inline keeps every function of the program out of line, so perf of
# the plain build sees each as a symbol of its own (at -O2 GCC inlines small
# functions, and perf would give their time to callers under names of its
# choosing); hcc's build takes the same flag so both programs are the same
# code, and what hcc's profile says of a function can be checked against
# what perf saw of it. (The cost: tiny accessors become real calls, so the
# shares are those of a -fno-inline build, not of an -O2 one.)
# The plain build runs under `perf record -g -e cpu-clock` (the call chain
# only to charge a sample in the kernel to the user-space frame that entered
# it, as hcc's CPU-time signal does: a page fault to the function that
# touched the page, a system call to the library's wrapper;
# TRUTH_KERNEL=other counts the kernel as a library instead); hcc's with the
# default environment: every HCC_* variable of the caller's environment
# unset, HCC_OUTPUT_DIR set to a scratch directory, nothing else
# (TRUTH_ENV='HCC_SAMPLING=on ...': extra assignments for hcc's run, to
# compare). Both with OMP_NUM_THREADS=1, as the dilation table runs them.
# Every run's output must be the plain run's, or the script stops.
#
# shares.py computes the shares (perf script's samples; hcc-report --json's
# exclusive time summed over call paths and threads), folds names alike on
# both sides (OpenMP constructs into their enclosing function, GCC clones
# and `[inlined]` frames into the function, libraries and the rest into
# one row "[libraries and other]") and judges each stand-in: every row
# perf gives >= 10% within 5 points in hcc's profile, and the same top row.
# Per stand-in it prints the rows (medians over ROUNDS rounds), PASS/FAIL
# and one line for tools (dilation_table.sh's truth column):
#   truth: NAME max_gap=X.X top_perf=ROW top_hcc=ROW verdict=pass|fail
# (spaces in ROW written as _). The exit status is 0 whatever the verdicts
# (a benchmark reports, it does not assert); 77 when perf cannot record on
# this machine (perf_event_paranoid, no permission, no perf), 1 when a build
# or a run fails or an output differs, 2 for bad arguments.
#
# Waits before each round while the 1-minute load average is >= 0.5
# (quiet_machine.sh) and prints the load at start and end.
#   BENCH_NO_WAIT=1          no waiting (figures are then indicative only)
#   BENCH_SMALL=1            tiny problem sizes (the ctest smoke test)
#   TRUTH_STANDINS="a b"     only these stand-ins (default: all)
#   TRUTH_KERNEL=other       perf's kernel samples in [libraries and other]
#                            (default caller: the user frame that entered it)
#   TRUTH_KEEP=1             keep the scratch directory (perf data, profiles,
#                            per-round shares) and print where it is
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../../build}" && pwd)
rounds=${2:-3}
case $rounds in '' | *[!0-9]* | 0) echo "$0: ROUNDS must be a positive integer, not '$rounds'" >&2; exit 2 ;; esac
hcc=$build/bin/hcc
report=$build/bin/hcc-report
for tool in "$hcc" "$report"; do
  [ -x "$tool" ] || { echo "$0: no $tool (build hcc first, or pass its build directory)" >&2; exit 2; }
done
command -v python3 > /dev/null || { echo "$0: needs python3" >&2; exit 2; }
. "$here/quiet_machine.sh"
. "$here/standins.sh"
names=${TRUTH_STANDINS:-$standins}
for name in $names; do describe "$name" > /dev/null || exit 2; done
kernel=${TRUTH_KERNEL:-caller}
case $kernel in caller | other) ;; *) echo "$0: TRUTH_KERNEL is caller or other, not '$kernel'" >&2; exit 2 ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/hcc-truth-XXXXXX")
if [ "${TRUTH_KEEP:-}" = 1 ]; then
  trap 'echo "truth table: scratch directory kept: $work"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
trap 'exit 1' INT TERM

# Can perf record here? (Unprivileged users need perf_event_paranoid <= 2
# for their own processes; a container may forbid perf_event_open.)
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2> /dev/null || echo unknown)
if ! command -v perf > /dev/null; then
  echo "$0: perf cannot record here: no perf command (Debian: apt-get install linux-perf)"
  exit 77
fi
if ! perf record -q -g -e cpu-clock -o "$work/check.data" -- true > "$work/check.log" 2>&1; then
  echo "$0: perf cannot record here (perf_event_paranoid=$paranoid, uid $(id -u)):"
  sed 's/^/  /' "$work/check.log"
  exit 77
fi

echo "hcc: $hcc"
echo "builds: plain cc/c++ -O2 -fno-inline; hcc -O2 -fno-inline (no hcc options); OMP_NUM_THREADS=1"
echo "hcc's run: default environment${TRUTH_ENV:+ plus TRUTH_ENV=\"$TRUTH_ENV\"}"
echo "perf: $(perf --version 2>&1), perf_event_paranoid=$paranoid; its samples in the kernel: $kernel"
echo "load at start: $(load_average)"

# build_one NAME: the plain and hcc builds of one stand-in into $work/NAME;
# the commands' output goes to build.log, printed when one fails.
build_one() {
  describe "$1"
  dir=$work/$1
  mkdir -p "$dir/shares"
  case $lang in c) cc=cc ;; *) cc=c++ ;; esac
  # shellcheck disable=SC2086 # flags is a word list
  if ! {
    $cc -O2 -fno-inline "$src" -o "$dir/plain" $flags &&
      "$hcc" -O2 -fno-inline "$src" -o "$dir/hcc" $flags
  } > "$dir/build.log" 2>&1; then
    echo "$0: building $1 failed:" >&2
    cat "$dir/build.log" >&2
    return 1
  fi
}

# shellcheck disable=SC2086 # a list of names
build_in_two_lanes $names || exit 1

# hcc's run gets the default environment: no HCC_* of the caller's.
unset_hcc=$(env | sed -n 's/^\(HCC_[A-Za-z0-9_]*\)=.*/-u \1/p')

# run_one NAME ROUND: perf of plain, then hcc's build, then both shares.
run_one() {
  describe "$1"
  dir=$work/$1
  r=$2
  # shellcheck disable=SC2086 # args is a word list
  if ! OMP_NUM_THREADS=1 perf record -q -g -e cpu-clock -o "$dir/perf-$r.data" -- "$dir/plain" $args \
    > "$dir/out-plain-$r" 2> "$dir/perf-$r.log"; then
    echo "$0: $1: perf record of the plain build failed (round $r):" >&2
    cat "$dir/perf-$r.log" >&2
    return 1
  fi
  perf script -i "$dir/perf-$r.data" -F comm,ip,sym,dso 2>> "$dir/perf-$r.log" |
    python3 "$here/shares.py" perf "$dir/plain" --kernel="$kernel" > "$dir/shares/perf-$r.tsv"
  [ "${TRUTH_KEEP:-}" = 1 ] || rm -f "$dir/perf-$r.data"
  # shellcheck disable=SC2086 # unset_hcc, TRUTH_ENV and args are word lists
  if ! python3 "$here/shares.py" run "$dir/cpu-$r" \
    env $unset_hcc OMP_NUM_THREADS=1 HCC_OUTPUT_DIR="$dir/profile-$r" ${TRUTH_ENV:-} "$dir/hcc" $args \
    > "$dir/out-hcc-$r" 2> "$dir/hcc-$r.log"; then
    echo "$0: $1: hcc's build failed (round $r):" >&2
    cat "$dir/hcc-$r.log" >&2
    return 1
  fi
  if ! cmp -s "$dir/out-plain-$r" "$dir/out-hcc-$r"; then
    echo "$0: $1: hcc's build printed something else than plain's (round $r):" >&2
    diff "$dir/out-plain-$r" "$dir/out-hcc-$r" >&2 || true
    return 1
  fi
  "$report" --json "$dir/profile-$r" | python3 "$here/shares.py" hcc "$dir/hcc" "$dir/cpu-$r" > "$dir/shares/hcc-$r.tsv"
}

r=1
while [ "$r" -le "$rounds" ]; do
  wait_for_quiet_machine
  echo "round $r: load $(load_average)"
  for name in $names; do run_one "$name" "$r" || exit 1; done
  r=$((r + 1))
done

echo
for name in $names; do
  describe "$name"
  echo "--- $name ($args)"
  python3 "$here/shares.py" judge "$name" "$work/$name/shares" | tee -a "$work/verdicts"
done
echo
echo "truth table: $(echo "$names" | wc -w) stand-in(s), $(grep -c '^truth: .* verdict=pass$' "$work/verdicts" || true) pass, $(grep -c '^truth: .* verdict=fail$' "$work/verdicts" || true) fail; $rounds round(s)"
echo "load at end: $(load_average)"

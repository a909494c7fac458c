# Sourced by the benchmark scripts: a figure is taken only on a quiet machine.
#   wait_for_quiet_machine   waits while the 1-minute load average is 0.5 or
#                            more (BENCH_NO_WAIT=1: no waiting, for a smoke
#                            run whose figures mean nothing)
#   load_average             the three load averages, for "at start/at end"
# (No HCC_* name: the runtime warns about unknown ones.)
load_average() { cut -d' ' -f1-3 /proc/loadavg; }
wait_for_quiet_machine() {
  [ "${BENCH_NO_WAIT:-}" = 1 ] && return 0
  until awk '{ exit !($1 < 0.5) }' /proc/loadavg; do
    echo "load $(cut -d' ' -f1 /proc/loadavg): waiting for < 0.5" >&2
    sleep 20
  done
}

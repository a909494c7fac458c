# Sourced by dilation_table.sh and truth_table.sh: the stand-ins of real codes
# (standins/README.md) and how each is built and run.
#   standins        their names, in the tables' order (BENCH_ONLY="a b": just those)
#   describe NAME   sets src (absolute), lang (c or c++), flags (compile and
#                   link), args (the measured run, ~1-2 s plain) and small
#                   (the smoke tests' run); BENCH_SMALL=1 puts small in args
# Needs $here, the directory of this file.
standins=${BENCH_ONLY:-"geometry xs_lookup btsolve pathtracer header_kernels memlookup blocking micro_lookup particles"}

describe() {
  flags=
  case $1 in
    geometry) src=standins/geometry.cpp; lang=c++; args="30 24"; small="6 1" ;;
    xs_lookup) src=standins/xs_lookup.c; lang=c; flags=-fopenmp; args="24000000 1000"; small="100000 500" ;;
    btsolve) src=standins/btsolve.c; lang=c; flags=-lm; args="32 50"; small="8 2" ;;
    pathtracer) src=pathtracer.cpp; lang=c++; args="128 96 96 24"; small="16 12 2 4" ;;
    header_kernels) src=standins/header_kernels.cpp; lang=c++; args="512 200"; small="32 4" ;;
    memlookup) src=standins/memlookup.c; lang=c; args="30000000 256"; small="100000 4" ;;
    blocking) src=standins/blocking.c; lang=c; args="150 80000"; small="4 2000" ;;
    micro_lookup) src=standins/micro_lookup.c; lang=c; args="700000 68 16000"; small="2000 8 64" ;;
    particles) src=standins/particles.cpp; lang=c++; args="4096 12000"; small="64 20" ;;
    *) echo "describe: no stand-in '$1' (the stand-ins: $standins)" >&2; return 1 ;;
  esac
  src=$here/$src
  [ "${BENCH_SMALL:-}" = 1 ] && args=$small
  return 0
}

# Runs the caller's build_one NAME for every stand-in named, in two lanes
# (the machine has two cores): every other one in each. Fails when any did.
build_in_two_lanes() {
  _lane_a='' _lane_b='' _i=0
  for _name in "$@"; do
    if [ $((_i % 2)) = 0 ]; then _lane_a="$_lane_a $_name"; else _lane_b="$_lane_b $_name"; fi
    _i=$((_i + 1))
  done
  # shellcheck disable=SC2086 # lists of names
  (for _name in $_lane_a; do build_one "$_name" || exit 1; done) &
  _pid_a=$!
  # shellcheck disable=SC2086
  (for _name in $_lane_b; do build_one "$_name" || exit 1; done) &
  _pid_b=$!
  _failed=0
  wait "$_pid_a" || _failed=1
  wait "$_pid_b" || _failed=1
  return "$_failed"
}

#!/bin/sh
# Test stand-in for libexec/hcc/hcc-instrument, honouring its contract:
#   hcc-instrument [--verbose] [--main-file-name=NAME] -o OUT SOURCE -- ARGS...
# It copies SOURCE to OUT behind `#line 1 "NAME"` (line numbers unchanged) and
# appends lines after the user's code that let tests see what happened:
#   - a string "HCC-STANDIN-INSTRUMENTED" in the object (the copy was compiled),
#   - an #error if the hcc prelude (inject.h) was not force-included.
# Knobs for tests:
#   HCC_STANDIN_LOG=file   append one line per call: the arguments, bracketed
#   HCC_STANDIN_PROBE=1    also append a constructor that enters and exits one
#                          region through HCC_FUNCTION_GUARD_ (runtime calls)
#   a source containing HCC_STANDIN_FAIL  -> exit 1 (reason only with --verbose)
#   a source containing HCC_STANDIN_BREAK -> output that does not compile
verbose=0 name= out= src=
while [ $# -gt 0 ]; do
  case "$1" in
    --verbose) verbose=1 ;;
    --main-file-name=*) name=${1#--main-file-name=} ;;
    --names=*) ;;
    -o) shift; out=$1 ;;
    --) shift; break ;;
    *) src=$1 ;;
  esac
  shift
done
if [ -n "$HCC_STANDIN_LOG" ]; then
  { printf 'call'; printf ' [%s]' "--main-file-name=$name" -o "$out" "$src" -- "$@"; printf '\n'; } >>"$HCC_STANDIN_LOG"
fi
if [ -z "$out" ] || [ -z "$src" ] || [ ! -r "$src" ]; then
  [ $verbose = 1 ] && echo "stand-in: bad arguments or unreadable source" >&2
  exit 2
fi
if grep -q HCC_STANDIN_FAIL "$src"; then
  [ $verbose = 1 ] && echo "stand-in: '$src' asks to fail (HCC_STANDIN_FAIL)" >&2
  exit 1
fi
[ -n "$name" ] || name=$src
{
  printf '#line 1 "%s"\n' "$name"
  cat "$src"
  printf '\n#ifndef HCC_DETAIL_INJECT_H\n#error "hcc prelude was not force-included"\n#endif\n'
  printf 'static const char hcc_standin_marker_[] __attribute__((used)) = "HCC-STANDIN-INSTRUMENTED";\n'
  if [ "$HCC_STANDIN_PROBE" = 1 ]; then
    printf '__attribute__((constructor)) static void hcc_standin_probe_(void) {\n'
    printf '  static hcc_region_desc d = {"standin_probe", 0, "%s", 1, 1, 0, 0};\n' "$name"
    printf '  HCC_FUNCTION_GUARD_(g, &d);\n}\n'
  fi
  if grep -q HCC_STANDIN_BREAK "$src"; then printf 'this line is not C;\n'; fi
} >"$out"
[ $verbose = 1 ] && echo "stand-in: instrumented '$src' as '$name'" >&2
exit 0

#!/bin/sh
# Grows the fuzzing corpus: runs each libFuzzer target for SECONDS (default
# 600) on the corpus kept in tests/fuzz/corpus/<target>/, then minimises the
# corpus back into that directory (-merge=1 keeps only inputs that add
# coverage, so the committed corpus stays small). Findings (crash-*, leak-*,
# timeout-*, oom-*) are left in build-fuzz/findings/<target>/.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=${1:-600}
[ $# -gt 0 ] && shift
targets=${*:-"cubex_reader filter_parser env_parser"}
out=$top/build-fuzz
[ -n "${HCC_FUZZ_SKIP_BUILD:-}" ] || "$here/build.sh" "$out" >/dev/null
for t in $targets; do
  corpus=$here/corpus/$t
  grown=$out/grown/$t
  findings=$out/findings/$t
  mkdir -p "$corpus" "$grown" "$findings"
  echo "== $t: ${secs}s"
  status=0
  "$out/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$grown" "$corpus" || status=$?
  "$out/$t" -merge=1 -timeout=10 -rss_limit_mb=1024 "$corpus" "$grown" >/dev/null 2>&1 || true
  echo "== $t: status $status, corpus $(ls "$corpus" | wc -l) files, $(du -sk "$corpus" | cut -f1) KiB, findings: $(ls "$findings" | wc -l)"
done

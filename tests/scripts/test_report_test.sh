#!/usr/bin/env bash
# scripts/test-report.py, the end of scripts/test.sh: on two JUnit files as
# ctest writes them (and one missing), it prints the load average, the
# slowest tests across the files, failed ones marked, and a closing count in
# which a skipped test (ctest's "notrun") counts as skipped and a disabled
# one not at all.
set -euo pipefail
report=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/main.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="main" tests="4" failures="1" disabled="1" skipped="1" hostname="" time="0" timestamp="2026-11-27T17:07:55">
	<testcase name="Fast.One" classname="Fast.One" time="0.5" status="run"><system-out></system-out></testcase>
	<testcase name="Slow&lt;T&gt;.Two" classname="Slow&lt;T&gt;.Two" time="12.25" status="fail"><failure message=""/><system-out></system-out></testcase>
	<testcase name="Skipped.Three" classname="Skipped.Three" time="0.01" status="notrun"><skipped message="SKIP_REGULAR_EXPRESSION_MATCHED"/><system-out></system-out></testcase>
	<testcase name="Off.Four" classname="Off.Four" time="0" status="disabled"><system-out>Disabled</system-out></testcase>
</testsuite>
XML
cat > "$work/sanitized-unit.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="san" tests="2" failures="0" disabled="0" skipped="0" hostname="" time="0" timestamp="2026-11-27T17:07:55">
	<testcase name="Mid.Five" classname="Mid.Five" time="3" status="run"><system-out></system-out></testcase>
	<testcase name="Tiny.Six" classname="Tiny.Six" time="0.001" status="run"><system-out></system-out></testcase>
</testsuite>
XML
out=$(python3 "$report" --load-before "1.00 2.00 3.00" -n 3 "$work/main.xml" "$work/missing.xml" "$work/sanitized-unit.xml" 2>"$work/err")
expected="slowest 3 of 4 tests run:
     12.25 s  Slow<T>.Two  (failed)
      3.00 s  Mid.Five
      0.50 s  Fast.One
tests: 3 passed, 1 failed, 1 skipped"
status=0
first=$(head -n1 <<<"$out")
if ! [[ $first =~ ^"load average (1, 5, 15 min) at the start: 1.00 2.00 3.00; at the end: "[0-9.]+" "[0-9.]+" "[0-9.]+$ ]]; then
  echo "first line: $first"; status=1
fi
if [ "$(tail -n +2 <<<"$out")" != "$expected" ]; then
  printf 'got:\n%s\nexpected:\n%s\n' "$(tail -n +2 <<<"$out")" "$expected"; status=1
fi
if ! grep -q "missing.xml" "$work/err"; then
  echo "the missing file is not named: $(cat "$work/err")"; status=1
fi
[ "$status" = 0 ] && echo "test-report: as expected"
exit "$status"

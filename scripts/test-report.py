#!/usr/bin/env python3
"""The end of a test run (issue 29): the machine's load average before and
after, and the slowest tests, read from the JUnit files ctest wrote
(`ctest --output-junit FILE`), so a slow or failed run can be read against
how busy the machine was. Its last line counts the tests of all the files
("tests: N passed, N failed, N skipped"): the whole run's closing line.

  scripts/test-report.py --load-before "$(cut -d" " -f1-3 /proc/loadavg)" [-n 10] FILE...

A file that is missing or unreadable (a ctest run that stopped before
writing it) is named and skipped; the rest are still reported."""
import argparse
import sys
import xml.etree.ElementTree as ET


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--load-before", required=True)
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    tests, skipped = [], 0
    for path in a.files:
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            print(f"test-report: {path}: {e}", file=sys.stderr)
            continue
        for case in root.iter("testcase"):
            if case.get("status") in ("run", "fail"):
                tests.append((float(case.get("time", "0")), case.get("name", "?"), case.get("status")))
            elif case.get("status") == "notrun":
                skipped += 1
    print(f"load average (1, 5, 15 min) at the start: {a.load_before}; at the end: {load_average()}")
    tests.sort(reverse=True)
    print(f"slowest {min(a.n, len(tests))} of {len(tests)} tests run:")
    for seconds, name, status in tests[: a.n]:
        print(f"  {seconds:8.2f} s  {name}{'  (failed)' if status == 'fail' else ''}")
    failed = sum(1 for t in tests if t[2] == "fail")
    print(f"tests: {len(tests) - failed} passed, {failed} failed, {skipped} skipped")


if __name__ == "__main__":
    main()

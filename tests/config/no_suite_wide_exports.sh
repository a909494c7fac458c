#!/usr/bin/env bash
# Fails naming file:line when a test entry point (scripts/test*.sh, .ci/run)
# or a test CMake file exports an HCC_* variable: set for the whole suite it
# would change every test (a stray HCC_TRACE, a short HCC_SERVER_IDLE).
# Tests set theirs per test (set_tests_properties ENVIRONMENT) or per
# process (VAR=value command).
#   no_suite_wide_exports.sh SOURCE_ROOT
set -uo pipefail
cd "$1" || exit 2
files=$(ls scripts/test*.sh .ci/run 2>/dev/null; find tests -name CMakeLists.txt -o -name '*.cmake')
# "export A=1 HCC_X=2", "export HCC_X", and CMake's set(ENV{HCC_X} ...).
found=$(grep -nHE '^[[:space:]]*export([[:space:]]+[A-Za-z0-9_]+(=[^[:space:]]*)?)*[[:space:]]+HCC_|set[[:space:]]*\([[:space:]]*ENV\{HCC_' $files)
if [ -n "$found" ]; then
  echo "an HCC_* variable exported for the whole test suite (set it per test or per process instead):"
  echo "$found"
  exit 1
fi
echo "no test entry point exports an HCC_* variable"

#!/bin/sh
# Replays the committed corpus of every fuzz target under AddressSanitizer and
# UndefinedBehaviorSanitizer (no new inputs: -runs=0). CTest runs this as
# fuzz_corpus_replay; exit status 77 (skipped) without Clang 19's libFuzzer.
#   tests/fuzz/replay.sh BUILD_DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: replay.sh BUILD_DIR}
if ! command -v "${HCC_FUZZ_CXX:-clang++-19}" >/dev/null ||
   ! ls /usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "clang++-19 with libFuzzer (libclang-rt-19-dev) is not installed: skipped"
  exit 77
fi
"$here/build.sh" "$out"
for t in cubex_reader filter_parser env_parser; do
  echo "== $t: $(ls "$here/corpus/$t" | wc -l) inputs"
  "$out/$t" -runs=0 -timeout=10 -rss_limit_mb=1024 "$here/corpus/$t"
done

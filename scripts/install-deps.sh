#!/usr/bin/env bash
# Installs the Debian 12 packages hcc needs to build and test (--build-only:
# only what building and using it needs). Safe to re-run: it only calls
# apt-get when a package is missing.
set -euo pipefail

# What building and using hcc needs; scripts/demo.sh installs only these.
packages=(
  build-essential cmake ninja-build pkg-config
  clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev          # the instrumentor parses with Clang 19
  libzstd-dev                                                     # LLVM 19's libSupport links zstd
  libxml2-dev libarchive-dev                                      # CUBE4 anchor.xml and the .cubex tar container
  libfmt-dev nlohmann-json3-dev libcli11-dev                      # formatting, JSON, hcc-report's arguments
  libopenmpi-dev openmpi-bin                                      # the MPI wrappers (libhcc_mpi)
  python3                                                         # generates the PMPI wrappers (wrappers/gen_wrappers.py)
  libpapi-dev papi-tools                                          # HCC_METRICS counters (runtime/counters); papi_avail lists events
  libotf2-trace-dev                                               # HCC_TRACE writes OTF2 (runtime/trace)
  libunwind-dev libdw-dev libelf-dev                              # HCC_SAMPLING: unwinding in the signal handler (libunwind), names and lines at the end (libdw, elfutils), PLT stubs named from section headers (libelf)
  graphviz binutils                                               # dot: hcc-report --callgraph=svg and --cfg=svg; GNU gprof reads our gmon.out
)
# What only the tests and benchmarks need (scripts/build.sh without --demo, scripts/test.sh).
test_packages=(
  libssl-dev                                                      # a test program that uses OpenSSL itself (tests/e2e/own_libraries_e2e_test.cpp)
  clang                                                           # Clang 14, tested underneath (as clang-19 is)
  libgtest-dev libbenchmark-dev                                   # tests and benchmarks
  ccache                                                          # build-system integration tests (ccache in front of and behind hcc)
  libomp-19-dev                                                   # clang-19 -fopenmp (libomp) for the OpenMP tests; conflicts with libomp-14-dev (tests/CMakeLists.txt picks whichever clang works)
  hyperfine                                                       # whole-program and build-time benchmarks (tests/bench/*.sh)
  otf2-tools                                                      # otf2-print checks the traces (tests/trace)
  libclang-rt-19-dev                                              # libFuzzer targets, their corpus replayed under ASan/UBSan (tests/fuzz)
  chromium                                                        # renders hcc-report --html headless in the tests (tests/report/html_e2e_test.cpp)
  linux-perf                                                      # perf record -e cpu-clock of the plain builds: the truth table's reference (tests/bench/truth_table.sh)
)
[ "${1:-}" = --build-only ] || packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
echo "hcc: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"

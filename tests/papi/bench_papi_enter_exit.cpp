// Cost of one region enter + exit with PAPI counters: run it with
// HCC_METRICS unset, with one and with three events, and compare medians:
//
//   bench_papi_enter_exit --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//   HCC_METRICS=perf::TASK-CLOCK bench_papi_enter_exit ...
//   HCC_METRICS=perf::TASK-CLOCK,perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES bench_papi_enter_exit ...
//
// The counters are read once per event with one PAPI_read (software events
// go through a read() system call each time).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "hcc/region.h"

#define REGION(var, name) \
  static hcc_region_desc var = {name, nullptr, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0}

REGION(parent_r, "bench_parent");
REGION(child_r, "bench_child");

static void BM_EnterExit(benchmark::State &state) {
  hcc_enter(&parent_r);
  for (auto _ : state) {
    hcc_enter(&child_r);
    hcc_exit(&child_r);
  }
  hcc_exit(&parent_r);
  const char *m = std::getenv("HCC_METRICS");
  state.SetLabel(m && *m ? m : "no counters");
}
BENCHMARK(BM_EnterExit);

int main(int argc, char **argv) {
  std::string dir = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/hcc-bench_papi";
  setenv("HCC_OUTPUT_DIR", dir.c_str(), /*overwrite=*/0);  // before the first event reads it
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

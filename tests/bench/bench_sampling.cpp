// Cost of one sample as HCC_SAMPLING's signal handler takes it: unwinding
// with libunwind from a context up to the innermost instrumented function,
// function starts from the per-thread cache (or, with caches off, from
// libunwind's procedure info every time), and counting the path.
//
//   bench_sampling --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
//
// The argument is the number of uninstrumented frames between the sample and
// the instrumented function (the frames the handler unwinds). The signal
// delivery itself (kernel) is not included; the timer rate makes it rare.
#include <benchmark/benchmark.h>
#include <ucontext.h>

#include <cstdlib>

#include "core/testing.hpp"
#include "hcc/region.h"

static hcc_region_desc anchor_r = {"bench_sample_anchor", nullptr, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};

static bool g_caches = true;

__attribute__((noinline)) static int sample_at_depth(int depth) {
  if (depth > 0) {
    int r = sample_at_depth(depth - 1);
    benchmark::DoNotOptimize(r);
    return r + 1;
  }
  ucontext_t uc;
  getcontext(&uc);
  return hcc::rt::testing::take_sample_from(&uc, g_caches) ? 0 : -1000000;
}

// The instrumented function: calls hcc_enter itself, so the runtime notes it
// as instrumented and the unwinding stops at its frame.
__attribute__((noinline)) static void run(benchmark::State &state, bool caches) {
  g_caches = caches;
  hcc_enter(&anchor_r);
  const int depth = int(state.range(0));
  for (auto _ : state) {
    int r = sample_at_depth(depth);
    if (r < 0) {
      state.SkipWithError("HCC_SAMPLING is off in this process");
      break;
    }
  }
  hcc_exit(&anchor_r);
}

static void BM_Sample(benchmark::State &state) { run(state, true); }
static void BM_SampleNoCache(benchmark::State &state) { run(state, false); }
BENCHMARK(BM_Sample)->Arg(1)->Arg(8)->Arg(32);
BENCHMARK(BM_SampleNoCache)->Arg(1)->Arg(8)->Arg(32);

int main(int argc, char **argv) {
  // On, at a low rate: the timer's own signals stay out of the measurement.
  setenv("HCC_SAMPLING", "1", 0);
  setenv("HCC_THROTTLE", "off", 0);  // the timed pairs stay timed (auto_throttle.cpp)
  if (!std::getenv("HCC_OUTPUT_DIR")) setenv("HCC_VERBOSE", "0", 0);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

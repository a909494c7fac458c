// Cost of one region enter + exit in libhcc.so (time and visits, call path
// kept), against the floor of two rdtsc reads.
//
//   bench_enter_exit --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
//
// With PAPI counters, the same pair reads them at enter and exit (one
// PAPI_read each; software events are a system call per read):
//   HCC_METRICS=perf::TASK-CLOCK bench_enter_exit --benchmark_filter='BM_EnterExit$'
//   HCC_METRICS=perf::TASK-CLOCK,perf::PAGE-FAULTS,perf::CONTEXT-SWITCHES bench_enter_exit ...
//
// The profile of the benchmark process itself goes to $HCC_OUTPUT_DIR, or to
// a directory under $TMPDIR (or /tmp) when that is not set, never into the
// working directory.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "hcc/region.h"
#include "hcc/detail/inject.h"

#define REGION(var, name) \
  static hcc_region_desc var = {name, nullptr, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0}

REGION(parent_r, "bench_parent");
REGION(child_r, "bench_child");
REGION(level_r, "bench_level");
REGION(excluded_r, "bench_excluded");  // excluded at run time: HCC_EXCLUDE, set in main

// The floor: what two clock reads cost on their own.
static void BM_Rdtsc2(benchmark::State &state) {
  for (auto _ : state) {
    uint64_t a = __builtin_ia32_rdtsc();
    benchmark::DoNotOptimize(a);
    uint64_t b = __builtin_ia32_rdtsc();
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK(BM_Rdtsc2);

// One enter+exit pair of a region under a fixed parent: the steady state of
// an instrumented call (cached child, no allocation).
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

// Siblings called in turn under one parent, as C++ codes call accessors:
// `for (...) { a.get(i); b.get(i); }`. Each iteration is one enter+exit pair
// per region, so the time per iteration divided by the number of regions is
// the cost of one pair (the counter `pairs` makes the report per pair).
REGION(sib_a_r, "bench_sibling_a");
REGION(sib_b_r, "bench_sibling_b");
REGION(sib_c_r, "bench_sibling_c");
static void BM_AlternatingSiblings2(benchmark::State &state) {
  hcc_enter(&parent_r);
  for (auto _ : state) {
    hcc_enter(&sib_a_r);
    hcc_exit(&sib_a_r);
    hcc_enter(&sib_b_r);
    hcc_exit(&sib_b_r);
  }
  hcc_exit(&parent_r);
  state.counters["pairs"] = benchmark::Counter(double(state.iterations()) * 2, benchmark::Counter::kIsRate |
                                                                                    benchmark::Counter::kInvert);
}
BENCHMARK(BM_AlternatingSiblings2);

// Three in turn: `a(); b(); c();` in a loop.
static void BM_AlternatingSiblings3(benchmark::State &state) {
  hcc_enter(&parent_r);
  for (auto _ : state) {
    hcc_enter(&sib_a_r);
    hcc_exit(&sib_a_r);
    hcc_enter(&sib_b_r);
    hcc_exit(&sib_b_r);
    hcc_enter(&sib_c_r);
    hcc_exit(&sib_c_r);
  }
  hcc_exit(&parent_r);
  state.counters["pairs"] = benchmark::Counter(double(state.iterations()) * 3, benchmark::Counter::kIsRate |
                                                                                    benchmark::Counter::kInvert);
}
BENCHMARK(BM_AlternatingSiblings3);

// The same pair at depth 10, below nine different regions: still the fast
// path (no region repeats on the path).
REGION(level1_r, "bench_level1");
REGION(level2_r, "bench_level2");
REGION(level3_r, "bench_level3");
REGION(level4_r, "bench_level4");
REGION(level5_r, "bench_level5");
REGION(level6_r, "bench_level6");
REGION(level7_r, "bench_level7");
REGION(level8_r, "bench_level8");
REGION(level9_r, "bench_level9");
static hcc_region_desc *const kLevels[9] = {&level1_r, &level2_r, &level3_r, &level4_r, &level5_r,
                                            &level6_r, &level7_r, &level8_r, &level9_r};
static void BM_EnterExitDepth(benchmark::State &state) {
  for (hcc_region_desc *l : kLevels) hcc_enter(l);
  for (auto _ : state) {
    hcc_enter(&child_r);
    hcc_exit(&child_r);
  }
  for (int i = 8; i >= 0; --i) hcc_exit(kLevels[i]);
}
BENCHMARK(BM_EnterExitDepth);

// Recursion is folded (runtime/core/fold.hpp): while a folded frame is
// open, every event takes the general paths and charges time per event.
// The pair of a callee at depth 10 inside a recursion nine frames deep:
static void BM_EnterExitInRecursion(benchmark::State &state) {
  for (int i = 0; i < 9; ++i) hcc_enter(&level_r);  // nine frames of recursion
  for (auto _ : state) {
    hcc_enter(&child_r);
    hcc_exit(&child_r);
  }
  for (int i = 0; i < 9; ++i) hcc_exit(&level_r);
}
BENCHMARK(BM_EnterExitInRecursion);

// One more level of that recursion (a recursive call and its return):
static void BM_RecursiveCall(benchmark::State &state) {
  for (int i = 0; i < 9; ++i) hcc_enter(&level_r);
  for (auto _ : state) {
    hcc_enter(&level_r);
    hcc_exit(&level_r);
  }
  for (int i = 0; i < 9; ++i) hcc_exit(&level_r);
}
BENCHMARK(BM_RecursiveCall);

// A recursion one level deep below nine other frames: every pair begins and
// ends recursion mode (its cost grows with the depth of the path).
static void BM_RecursionEpisode(benchmark::State &state) {
  for (hcc_region_desc *l : kLevels) hcc_enter(l);
  for (auto _ : state) {
    hcc_enter(&level9_r);
    hcc_exit(&level9_r);
  }
  for (int i = 8; i >= 0; --i) hcc_exit(kLevels[i]);
}
BENCHMARK(BM_RecursionEpisode);

// A region a run-time filter excludes: its descriptor holds the excluded
// value after the first enter, so each pair is two calls that load it,
// compare and return (the contract: one load and one branch each).
static void BM_ExcludedEnterExit(benchmark::State &state) {
  hcc_enter(&parent_r);
  for (auto _ : state) {
    hcc_enter(&excluded_r);
    hcc_exit(&excluded_r);
  }
  hcc_exit(&parent_r);
}
BENCHMARK(BM_ExcludedEnterExit);

// The same through the guard the instrumentor writes (include/hcc/detail/
// inject.h), which tests for the excluded id before calling the runtime (on
// x86-64 in bind.h's guard calls, a direct call and return each): a
// function with the guard of an excluded region against the same function
// without a guard. The difference is the excluded region's cost per call.
REGION(excluded_fn_r, "bench_excluded_fn");
__attribute__((noinline)) static int guarded_excluded(int x) {
  HCC_FUNCTION_GUARD_(g, &excluded_fn_r);
  benchmark::DoNotOptimize(x);
  return x + 1;
}
__attribute__((noinline)) static int unguarded(int x) {
  benchmark::DoNotOptimize(x);
  return x + 1;
}
static void BM_ExcludedGuardCall(benchmark::State &state) {
  int x = 0;
  for (auto _ : state) x = guarded_excluded(x);
  benchmark::DoNotOptimize(x);
}
BENCHMARK(BM_ExcludedGuardCall);
// A recorded region through the same guard: what an instrumented function
// pays per call (against BM_PlainCall).
REGION(recorded_fn_r, "bench_recorded_fn");
__attribute__((noinline)) static int guarded_recorded(int x) {
  HCC_FUNCTION_GUARD_(g, &recorded_fn_r);
  benchmark::DoNotOptimize(x);
  return x + 1;
}
static void BM_RecordedGuardCall(benchmark::State &state) {
  hcc_enter(&parent_r);
  int x = 0;
  for (auto _ : state) x = guarded_recorded(x);
  benchmark::DoNotOptimize(x);
  hcc_exit(&parent_r);
}
BENCHMARK(BM_RecordedGuardCall);
static void BM_PlainCall(benchmark::State &state) {
  int x = 0;
  for (auto _ : state) x = unguarded(x);
  benchmark::DoNotOptimize(x);
}
BENCHMARK(BM_PlainCall);

// Count mode (runtime/core/count_hooks.cpp): the pair of a counted region,
// which keeps its call path and exact visits but reads no clock. Against
// BM_EnterExit (the timed pair) and BM_Rdtsc2 (the clock's floor); target
// ≤ 5 ns. Instructions per pair, repeatable on a busy machine:
//   valgrind --tool=callgrind --callgrind-out-file=cg.out bench_enter_exit \
//     --benchmark_filter='BM_CountedEnterExit$|BM_EnterExit$' --benchmark_min_time=0.05
//   callgrind_annotate --inclusive=yes cg.out | grep -E 'hcc_(count_)?(enter|exit)'
// (Ir of each hook divided by its calls; the warm-up's slow paths included).
REGION(counted_r, "bench_counted");
static void BM_CountedEnterExit(benchmark::State &state) {
  hcc_enter(&parent_r);
  for (auto _ : state) {
    hcc_count_enter(&counted_r);
    hcc_count_exit(&counted_r);
  }
  hcc_exit(&parent_r);
}
BENCHMARK(BM_CountedEnterExit);
// The same through the guard the instrumentor writes for a counted function
// (HCC_COUNT_GUARD_, inject.h): against BM_RecordedGuardCall and BM_PlainCall.
REGION(counted_fn_r, "bench_counted_fn");
__attribute__((noinline)) static int guarded_counted(int x) {
  HCC_COUNT_GUARD_(g, &counted_fn_r);
  benchmark::DoNotOptimize(x);
  return x + 1;
}
static void BM_CountedGuardCall(benchmark::State &state) {
  hcc_enter(&parent_r);
  int x = 0;
  for (auto _ : state) x = guarded_counted(x);
  benchmark::DoNotOptimize(x);
  hcc_exit(&parent_r);
}
BENCHMARK(BM_CountedGuardCall);
// A counted function that calls nothing (HCC_COUNT_VISIT_): one call of
// hcc_count_visit where its guard would enter, nothing at its exit.
REGION(visited_fn_r, "bench_visited_fn");
__attribute__((noinline)) static int visited_counted(int x) {
  HCC_COUNT_VISIT_(g, &visited_fn_r);
  return x + 1;
}
static void BM_CountedVisitCall(benchmark::State &state) {
  hcc_enter(&parent_r);
  int x = 0;
  for (auto _ : state) x = visited_counted(x);
  benchmark::DoNotOptimize(x);
  hcc_exit(&parent_r);
}
BENCHMARK(BM_CountedVisitCall);

int main(int argc, char **argv) {
  std::string dir = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/hcc-bench_enter_exit";
  setenv("HCC_OUTPUT_DIR", dir.c_str(), /*overwrite=*/0);  // before the first event reads it
  setenv("HCC_OVERWRITE", "1", /*overwrite=*/0);  // each run replaces the last run's profile there
  setenv("HCC_EXCLUDE", "bench_excluded*", /*overwrite=*/0);  // for BM_ExcludedEnterExit
  // Every region here is hot and cheap, what the default throttling stops
  // timing (auto_throttle.cpp): the pairs are measured as they cost timed.
  setenv("HCC_THROTTLE", "off", /*overwrite=*/0);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

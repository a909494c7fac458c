// The enter/exit pair of bench_enter_exit.cpp, called the way instrumented
// objects call it: through the trampolines the prelude gives each module
// (include/hcc/detail/bind.h; this file is compiled with -include inject.h,
// as hcc compiles), instead of through the PLT. Both are one indirect jump;
// BM_EnterExitViaTrampoline against BM_EnterExit shows what that costs.
#include <benchmark/benchmark.h>

static hcc_region_desc tparent_r = {"bench_tparent", nullptr, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};
static hcc_region_desc tchild_r = {"bench_tchild", nullptr, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};

static void BM_EnterExitViaTrampoline(benchmark::State &state) {
  hcc_enter(&tparent_r);
  for (auto _ : state) {
    hcc_enter(&tchild_r);
    hcc_exit(&tchild_r);
  }
  hcc_exit(&tparent_r);
}
BENCHMARK(BM_EnterExitViaTrampoline);

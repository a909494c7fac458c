// hcc — the cross-rank merge of synthetic profiles, 1 … 8192 ranks simulated
// in process (the reduction tree with serialisation at every hop). Reports
// time, the process's peak RSS, and the bytes the largest holders keep:
// rank 0's final matrix, the broadcast definitions, the largest message.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include "synthetic.hpp"

namespace {

void BM_MergeJob(benchmark::State &state) {
  const int ranks = int(state.range(0));
  hcc::testing::JobStats st;
  size_t cnodes = 0;
  for (auto _ : state) {
    hcc::profile::Profile p =
        hcc::testing::simulate_job(ranks, [](int r) { return hcc::testing::synthetic_rank(r, 1); }, &st);
    cnodes = p.cnodes.size();
    benchmark::DoNotOptimize(p.excl.data());
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  state.counters["cnodes"] = double(cnodes);
  state.counters["peak_rss_MiB"] = double(ru.ru_maxrss) / 1024.0;
  state.counters["rank0_matrix_MiB"] = double(st.matrix) / (1024.0 * 1024.0);
  state.counters["defs_KiB"] = double(st.global_defs) / 1024.0;
  state.counters["max_msg_KiB"] = double(std::max(st.max_defs_message, st.max_packet)) / 1024.0;
}
// The same synthetic profiles made as often as the job makes them (three
// times per rank), without merging: subtract it from BM_MergeJob.
void BM_GenerateOnly(benchmark::State &state) {
  const int ranks = int(state.range(0));
  for (auto _ : state)
    for (int k = 0; k < 3; ++k)
      for (int r = 0; r < ranks; ++r) benchmark::DoNotOptimize(hcc::testing::synthetic_rank(r, 1).excl.data());
}
BENCHMARK(BM_GenerateOnly)->Arg(1)->Arg(64)->Arg(1024)->Arg(8192)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK(BM_MergeJob)->Arg(1)->Arg(64)->Arg(1024)->Arg(8192)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();

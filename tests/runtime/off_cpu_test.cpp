// Which timed call paths get their time off the CPU as a `<not on CPU>`
// child (runtime/core/off_cpu.hpp), on exact numbers: a sample period of
// 100 ticks, so a rest must exceed 4 sqrt(k + 1) x 100 ticks.
#include <gtest/gtest.h>

#include "core/off_cpu.hpp"

namespace hcc::rt {
namespace {

// main (0) -> wait (1), main -> work (2), work -> leaf (3).
const std::vector<int> kParent = {-1, 0, 0, 2};

TEST(OffCpu, AFunctionThatWaitedGetsItsRestAndOneThatComputedDoesNot) {
  // wait: 10 000 ticks, 3 samples (300 ticks on the CPU): 9 700 off, far
  // above 4 x 2 x 100. work: 5 000 exclusive (6 000 less leaf's 1 000),
  // 48 samples (4 800): 200 off, below 4 x 7 x 100 = 2 800: noise.
  const std::vector<uint64_t> incl = {17000, 10000, 6000, 1000};
  const std::vector<bool> eligible = {true, true, true, true};
  const std::vector<uint64_t> cpu = {1000, 300, 4800, 1000}, samples = {10, 3, 48, 10};
  const std::vector<OffCpuPart> parts = off_cpu_parts(kParent, incl, eligible, cpu, samples, 100);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].node, 1u);
  EXPECT_EQ(parts[0].ticks, 9700u);
}

TEST(OffCpu, ARestJustAboveTheNoiseIsSplitJustBelowIsNot) {
  // A leaf with no sample: 4 x 1 x 100 = 400 ticks is the line.
  const std::vector<int> parent = {-1, 0};
  const std::vector<bool> eligible = {false, true};
  const std::vector<uint64_t> cpu = {0, 0}, samples = {0, 0};
  EXPECT_TRUE(off_cpu_parts(parent, {1000, 400}, eligible, cpu, samples, 100).empty());
  const std::vector<OffCpuPart> parts = off_cpu_parts(parent, {1000, 401}, eligible, cpu, samples, 100);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].ticks, 401u);
}

TEST(OffCpu, OnlyEligibleNodesAndNeverMoreThanTheExclusiveTime) {
  // main is not eligible (an OpenMP or MPI region, an untimed node); leaf's
  // samples say more than its exclusive time: nothing off; work's children
  // hold all its time: nothing off.
  const std::vector<uint64_t> incl = {17000, 10000, 1000, 1000};
  const std::vector<bool> eligible = {false, false, true, true};
  const std::vector<uint64_t> cpu = {0, 0, 0, 5000}, samples = {0, 0, 0, 50};
  EXPECT_TRUE(off_cpu_parts(kParent, incl, eligible, cpu, samples, 100).empty());
  EXPECT_TRUE(off_cpu_parts(kParent, incl, {true, true, true, true}, {0, 0, 0, 5000}, {0, 0, 0, 50}, 0).empty());
}

TEST(OffCpu, ACalleesSamplesBeyondItsOwnTimeCountForItsCaller) {
  // loop (0) calls tiny (1) many times: the pairs' samples land on tiny
  // (5 000 ticks of CPU in 1 000 of exclusive time), but part of each pair
  // is loop's exclusive time (5 000, only 500 of its own samples): the
  // 4 000 tiny cannot hold are loop's, which then was on the CPU.
  const std::vector<int> parent = {-1, 0};
  const std::vector<bool> eligible = {true, true};
  const std::vector<uint64_t> incl = {6000, 1000};
  EXPECT_TRUE(off_cpu_parts(parent, incl, eligible, {500, 5000}, {5, 50}, 100).empty());
  // Without them loop would be 4 500 off, above 4 x sqrt(6) x 100.
  const std::vector<OffCpuPart> parts = off_cpu_parts(parent, incl, eligible, {500, 1000}, {5, 10}, 100);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].ticks, 4500u);
}

TEST(OffCpu, TheNoiseCountsTheSamplesOfChildrenTimedBySamples) {
  // churn (1) spends its time in malloc (2), a sampled frame whose time is
  // its 900 samples: their error is in churn's exclusive time (the rest of
  // its wall time), so 2 000 ticks are noise (4 x sqrt(911) x 100 = 12 000),
  // while with churn's own 10 samples alone they were split off.
  const std::vector<int> parent = {-1, 0, 1};
  const std::vector<uint64_t> incl = {100000, 93000, 90000};
  const std::vector<uint64_t> cpu = {7000, 1000, 90000}, samples = {70, 10, 900};
  EXPECT_TRUE(off_cpu_parts(parent, incl, {true, true, false}, cpu, samples, 100).empty());
  // Timed, malloc's samples are its own affair: churn's rest is off the CPU.
  const std::vector<OffCpuPart> parts = off_cpu_parts(parent, incl, {true, true, true}, cpu, samples, 100);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].node, 1u);
  EXPECT_EQ(parts[0].ticks, 2000u);
}

}  // namespace
}  // namespace hcc::rt

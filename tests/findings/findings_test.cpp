// Findings on profiles built here with exact numbers: the run's thread
// time, each kind's cost formula, the late thread or rank named, the
// ranking, and text that stays one line a row however many ranks.
#include <gtest/gtest.h>

#include "findings.hpp"
#include "test_util.hpp"

namespace hcc::findings {
namespace {

using hcc::profile::CubeType;
using hcc::profile::DType;
using hcc::profile::Profile;
using hcc::profile::Region;
using hcc_test::metric;
using hcc_test::region;

Region construct(const std::string &role, int line) {
  Region r = region(role, "omp.c", line, line + 5);
  r.paradigm = "openmp";
  r.role = role;
  return r;
}

Region mpi_call(const std::string &name) {
  Region r = region(name, "", -1, -1);
  r.paradigm = "mpi";
  return r;
}

// A profile of `cnodes` (region, parent) on `locations`, every value 0.
Profile empty(std::vector<Region> regions, std::vector<hcc::profile::CallNode> cnodes,
              std::vector<hcc::profile::Location> locations) {
  Profile p;
  p.metrics = {metric("time", "sec", DType::Double, CubeType::Inclusive),
               metric("visits", "occ", DType::UInt64, CubeType::Exclusive)};
  p.regions = std::move(regions);
  p.cnodes = std::move(cnodes);
  p.locations = std::move(locations);
  p.excl.assign(2, std::vector<double>(p.cnodes.size() * p.nloc(), 0.0));
  return p;
}

const Finding *first_of(const std::vector<Finding> &all, const std::string &kind) {
  for (const auto &f : all)
    if (f.kind == kind) return &f;
  return nullptr;
}

// main -> parallel -> loop -> implicit barrier, two threads: thread 0
// works 1 s and waits 3 s, thread 1 works 4 s. Then main alone 2 s.
Profile loop_profile() {
  Profile p = empty({region("main", "omp.c", 1, 40), construct("parallel", 10), construct("loop", 12),
                     construct("implicit barrier", 13)},
                    {{0, -1}, {1, 0}, {2, 1}, {3, 2}}, {{"thread 0", 0, 0}, {"thread 1", 0, 1}});
  p.at(0, 0, 0) = 2;                    // main's own
  p.at(0, 2, 0) = 1, p.at(0, 3, 0) = 3;  // thread 0: loop body 1, barrier 3
  p.at(0, 2, 1) = 4, p.at(0, 3, 1) = 0;  // thread 1: loop body 4
  for (std::size_t c = 1; c < 4; ++c) p.at(1, c, 0) = p.at(1, c, 1) = 1;
  p.at(1, 0, 0) = 1;
  p.cnodes[0].parent = -1;
  // thread 1's tree starts at the parallel region (worker threads do).
  return p;
}

TEST(FindingsModel, RunThreadTimeIsEachProcesssLongestThreadTimesItsThreads) {
  // Thread 0: main 2 + 1 + 3 = 6 s; thread 1: 4 s. One process of 2 threads: 12 s.
  EXPECT_DOUBLE_EQ(run_thread_time(loop_profile()), 12.0);
}

TEST(FindingsOpenMP, ImbalanceIsTheBarriersWaitAndTheThreadThatWaitedLeastIsLate) {
  const auto all = find_all(loop_profile());
  const Finding *f = first_of(all, "openmp.imbalance");
  ASSERT_NE(f, nullptr);
  EXPECT_DOUBLE_EQ(f->cost_s, 3.0);
  EXPECT_DOUBLE_EQ(f->share, 3.0 / 12.0);
  EXPECT_EQ(f->path, "main \u2192 parallel @omp.c:10 \u2192 loop @omp.c:12 \u2192 implicit barrier @omp.c:13");
  EXPECT_EQ(f->meaning.rfind("thread 1 finished last", 0), 0u) << f->meaning;
  ASSERT_EQ(f->evidence.size(), 2u);
  EXPECT_EQ(f->evidence[1].values, (std::vector<double>{1, 4}));  // working: execT - exitBarT
  // The serial part: main's own 2 s while thread 1 idles.
  const Finding *serial = first_of(all, "openmp.serial");
  ASSERT_NE(serial, nullptr);
  EXPECT_DOUBLE_EQ(serial->cost_s, 2.0);
  // Ranked by cost: the imbalance (3 s) before the serial part (2 s).
  EXPECT_EQ(all.front().kind, "openmp.imbalance");
}

// main -> work, main -> MPI_Allreduce on three ranks: ranks 0 and 1 work
// 1 s and wait 2 s, rank 2 works 3 s and waits 0.
TEST(FindingsMPI, CollectiveWaitIsEachRanksTimeLessTheLeastAndNamesTheLateRanksExcess) {
  Profile p = empty({region("main", "a.c", 1, 9), region("work", "a.c", 10, 19), mpi_call("MPI_Allreduce")},
                    {{0, -1}, {1, 0}, {2, 0}}, {{"rank 0", 0, 0}, {"rank 1", 1, 0}, {"rank 2", 2, 0}});
  const double work[] = {1, 1, 3}, wait[] = {2, 2, 0};
  for (std::size_t l = 0; l < 3; ++l) {
    p.at(0, 1, l) = work[l], p.at(0, 2, l) = wait[l];
    p.at(1, 0, l) = p.at(1, 1, l) = p.at(1, 2, l) = 1;
  }
  const auto all = find_all(p);
  ASSERT_FALSE(all.empty());
  const Finding &f = all.front();
  EXPECT_EQ(f.kind, "mpi.collective_wait");
  EXPECT_DOUBLE_EQ(f.cost_s, 4.0);
  EXPECT_DOUBLE_EQ(f.share, 4.0 / 9.0);  // three processes of one thread, 3 s each
  EXPECT_EQ(f.title, "ranks waiting in MPI_Allreduce for rank 2");
  // Rank 2's excess outside MPI: 3 - mean(1, 1) = 2 s, in work.
  EXPECT_NE(f.meaning.find("it spent 2 s more than the others in work"), std::string::npos) << f.meaning;
}

TEST(FindingsCalls, AFlushAndTheWriteBelowItAreOneIoFindingOfTheirCaller) {
  Region flush = region("std::basic_ostream<char, std::char_traits<char> >::flush()", "", -1, -1),
         sync = region("std::basic_filebuf<char, std::char_traits<char> >::overflow(int)", "", -1, -1),
         write = region("__write", "", -1, -1);
  for (Region *r : {&flush, &sync, &write}) r->paradigm = "sampling";
  Profile p = empty({region("main", "a.c", 1, 9), region("log", "a.c", 10, 19), flush, sync, write},
                    {{0, -1}, {1, 0}, {2, 1}, {3, 2}, {4, 3}}, {{"thread 0", 0, 0}});
  p.at(0, 0, 0) = 6, p.at(0, 2, 0) = 1, p.at(0, 3, 0) = 0.5, p.at(0, 4, 0) = 2.5;
  p.at(1, 0, 0) = 1, p.at(1, 1, 0) = 1000;
  const auto all = find_all(p);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].kind, "calls.io");
  EXPECT_DOUBLE_EQ(all[0].cost_s, 4.0);
  EXPECT_EQ(all[0].title, "I/O calls in log (flush)");
  EXPECT_DOUBLE_EQ(all[0].share, 0.4);
}

TEST(FindingsText, ARowOfAHundredThousandRanksIsOneLine) {
  Finding f;
  f.kind = "mpi.collective_wait";
  f.title = "ranks waiting";
  f.cost_s = 1;
  f.share = 0.5;
  Evidence e{"time in MPI_Allreduce", "s", {}, {}};
  for (int r = 0; r < 100000; ++r) e.keys.push_back("rank " + std::to_string(r)), e.values.push_back(r);
  f.evidence.push_back(e);
  const std::string text = findings_text({f});
  EXPECT_LT(text.size(), 1000u) << text;
  EXPECT_NE(text.find("rank 7 7, and 99992 more from 8 to 99999"), std::string::npos) << text;
}

TEST(FindingsText, NothingToFindSaysSo) {
  EXPECT_NE(findings_text({}).find("nothing above 0.5% of the run"), std::string::npos);
  EXPECT_TRUE(find_all(hcc_test::sample_profile()).empty());  // no waiting, no calls, no counters
}

}  // namespace
}  // namespace hcc::findings

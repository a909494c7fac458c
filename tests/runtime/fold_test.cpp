// Recursion folding (runtime/core/fold.hpp): a region entered while it is on
// the call path is counted on the existing node. Shapes, exact visits, the
// recursion depth, time charged to the region that did the work, and the
// odd ways out (exit repair, longjmp, pause, a profile built mid-recursion).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "hcc/pomp2.h"
#include "longjmp_helpers.h"
#include "test_util.hpp"

using tu::children;
using tu::find_path;
using tu::total;

namespace {

TEST_REGION(ping_region, "ping");
TEST_REGION(pong_region, "pong");
TEST_REGION(leaf_region, "leaf");

// ping(d) -> pong(d) -> ping(d + 1) ... to depth 10; ping splits in two
// below depth 3 (as glass does in a path tracer); each calls leaf once.
long leaf(long x) {
  HCC_FUNCTION_GUARD_(g, &leaf_region);
  return x * 3 + 1;
}
long ping(int d, long x);
long pong(int d, long x) {
  HCC_FUNCTION_GUARD_(g, &pong_region);
  x = leaf(x);
  return d >= 10 ? x : ping(d + 1, x);
}
long ping(int d, long x) {
  HCC_FUNCTION_GUARD_(g, &ping_region);
  x = leaf(x) ^ d;
  return d < 3 ? pong(d, x) + pong(d, x + 1) : pong(d, x);
}

// Inclusive = exclusive + children holds in the model by construction; what
// can go wrong is a negative exclusive value or more time than the run had.
void expect_times_sane(const hcc::profile::Profile &p, double wall) {
  const int tm = p.metric_index("time");
  double sum = 0;
  for (size_t c = 0; c < p.cnodes.size(); ++c)
    for (size_t l = 0; l < p.nloc(); ++l) {
      EXPECT_GE(p.at(size_t(tm), c, l), -1e-12) << "negative exclusive time at call path " << c;
      sum += p.at(size_t(tm), c, l);
    }
  EXPECT_LE(sum, wall * 1.001 + 1e-6) << "more time in the profile than the test ran";
}

TEST(Fold, MutualRecursionIsTwoCallPathsWithExactVisits) {
  TEST_REGION(root, "test_mutual");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    long sum = 0;
    for (int i = 0; i < 100; ++i) sum += ping(1, i);
    EXPECT_NE(sum, 0);
  }
  EXPECT_FALSE(hcc::rt::testing::recursion_mode());
  auto p = hcc::rt::testing::build_profile_now();
  // ping: 100 at depth 1, 200 at 2, 400 at 3..10; pong: 200, 400, 400 x 8.
  const int a = find_path(p, {"test_mutual", "ping"}), b = find_path(p, {"test_mutual", "ping", "pong"});
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  EXPECT_EQ(total(p, "visits", a), 3500.0);
  EXPECT_EQ(total(p, "visits", b), 3800.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_mutual", "ping", "leaf"})), 3500.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_mutual", "ping", "pong", "leaf"})), 3800.0);
  // The whole recursion is these five call paths.
  EXPECT_EQ(children(p, find_path(p, {"test_mutual"})).size(), 1u);
  EXPECT_EQ(children(p, a).size(), 2u);
  EXPECT_EQ(children(p, b).size(), 1u);
  EXPECT_EQ(find_path(p, {"test_mutual", "ping", "pong", "ping"}), -1);
  EXPECT_EQ(total(p, "recursion_depth", a), 10.0);
  EXPECT_EQ(total(p, "recursion_depth", b), 10.0);
  EXPECT_EQ(total(p, "recursion_depth", find_path(p, {"test_mutual", "ping", "leaf"})), 1.0);
  // Of ping's visits, 100 came from test_mutual, the rest from pong (calls of
  // ping while ping was open); every pong visit came from its tree parent.
  EXPECT_EQ(total(p, "recursive_visits", a), 3400.0);
  EXPECT_EQ(total(p, "recursive_visits", b), 0.0);
}

TEST_REGION(countdown_region, "countdown");
int countdown(int n) {
  HCC_FUNCTION_GUARD_(g, &countdown_region);
  return n == 0 ? 0 : 1 + countdown(n - 1);
}

// gprof's "5+15": five outer calls of depth 4 against (say) one of depth 20
// look alike in visits and depth; recursive_visits tells them apart.
TEST(Fold, RecursiveVisitsSeparateOuterCallsFromRecursiveOnes) {
  TEST_REGION(root, "test_countdown");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    int sum = 0;
    for (int i = 0; i < 5; ++i) sum += countdown(3);
    EXPECT_EQ(sum, 15);
  }
  auto p = hcc::rt::testing::build_profile_now();
  const int c = find_path(p, {"test_countdown", "countdown"});
  ASSERT_GE(c, 0);
  EXPECT_EQ(total(p, "visits", c), 20.0);
  EXPECT_EQ(total(p, "recursive_visits", c), 15.0);
  EXPECT_EQ(total(p, "recursion_depth", c), 4.0);
}

TEST_REGION(heavy_region, "heavy");
TEST_REGION(light_region, "light");
TEST_REGION(only_inner_region, "only_inner");

// heavy (4 ms of its own) -> light (1 ms) -> heavy ... `n` levels each; the
// innermost heavy also calls only_inner. Each adds up the wall time its own
// spins really took (a loaded machine stretches them unevenly).
double heavy_spun = 0, heavy_inner_spun = 0, light_spun = 0;
int heavy_calls = 0;
void light(int n);
void heavy(int n) {
  HCC_FUNCTION_GUARD_(g, &heavy_region);
  const double spun = tu::spin_ms(4);
  heavy_spun += spun;
  if (heavy_calls++ > 0) heavy_inner_spun += spun;  // below a light
  if (n > 1) {
    light(n);
  } else {
    HCC_FUNCTION_GUARD_(gi, &only_inner_region);
    tu::spin_ms(1);
  }
}
void light(int n) {
  HCC_FUNCTION_GUARD_(g, &light_region);
  light_spun += tu::spin_ms(1);
  heavy(n - 1);
}

TEST(Fold, RecursionThroughOthersChargesEachRegionItsOwnTime) {
  TEST_REGION(root, "test_attribution");
  auto t0 = std::chrono::steady_clock::now();
  heavy_spun = heavy_inner_spun = light_spun = 0;
  heavy_calls = 0;
  {
    HCC_FUNCTION_GUARD_(g, &root);
    heavy(4);  // heavy x4 (16 ms), light x3 (3 ms), only_inner x1 (1 ms)
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto p = hcc::rt::testing::build_profile_now();
  const int h = find_path(p, {"test_attribution", "heavy"});
  const int l = find_path(p, {"test_attribution", "heavy", "light"});
  // A callee of the inner heavy is a callee of the one heavy node.
  const int inner = find_path(p, {"test_attribution", "heavy", "only_inner"});
  ASSERT_GE(h, 0);
  ASSERT_GE(l, 0);
  ASSERT_GE(inner, 0);
  EXPECT_EQ(find_path(p, {"test_attribution", "heavy", "light", "only_inner"}), -1);
  EXPECT_EQ(total(p, "visits", h), 4.0);
  EXPECT_EQ(total(p, "visits", l), 3.0);
  // Each region's exclusive time is what its own frames spun: heavy's inner
  // frames are not light's time (inclusive accumulation would give light
  // 15 ms and heavy 4 ms).
  EXPECT_GE(total(p, "time", h), 0.016 * 0.999);
  EXPECT_GE(total(p, "time", l), 0.003 * 0.999);
  EXPECT_GE(total(p, "time", inner), 0.001 * 0.999);
  // 16 : 3 ms (inclusive accumulation per frame: 4 : 15), compared with what
  // each region's spins really took in this run, not with each other: on a
  // busy machine another process can hold the core for longer than 13 ms
  // while light spins. Its own spins are the region's; the spins of the
  // heavies below a light (12 ms or more) must not be light's.
  EXPECT_GE(total(p, "time", h), heavy_spun * 0.999) << "heavy spun " << heavy_spun << " s";
  EXPECT_GE(total(p, "time", l), light_spun * 0.999) << "light spun " << light_spun << " s";
  EXPECT_LT(total(p, "time", l), light_spun + 0.5 * heavy_inner_spun)
      << "light has " << total(p, "time", l) << " s; it spun " << light_spun << " s, the heavies below it "
      << heavy_inner_spun << " s";
  EXPECT_LT(tu::inclusive_total(p, "time", l), tu::inclusive_total(p, "time", h));
  EXPECT_GE(tu::inclusive_total(p, "time", h), 0.020 * 0.999);
  expect_times_sane(p, wall);
}

TEST_REGION(self_region, "self_rec");
TEST_REGION(self_child_region, "self_child");

// self_rec (1 ms before its call, 0.5 ms after) -> self_rec ... n levels;
// the innermost calls self_child (0.5 ms). A frame entered or left on its own
// region's proxy reads no clock (hooks.cpp, the enter lane and
// exit_in_mode): the time between such events is charged at the next event
// that changes the running node, so the spins after each return must still
// be self_rec's, not self_child's, which ran before them.
double self_spun = 0, self_child_spun = 0;
void self_rec(int n) {
  HCC_FUNCTION_GUARD_(g, &self_region);
  self_spun += tu::spin_ms(1);
  if (n > 1) {
    self_rec(n - 1);
  } else {
    HCC_FUNCTION_GUARD_(gc, &self_child_region);
    self_child_spun += tu::spin_ms(0.5);
  }
  self_spun += tu::spin_ms(0.5);
}

TEST(Fold, DirectRecursionReadingNoClockStillChargesEachRegionItsOwnTime) {
  TEST_REGION(root, "test_self");
  auto t0 = std::chrono::steady_clock::now();
  self_spun = self_child_spun = 0;
  uint64_t slow = 0;
  {
    HCC_FUNCTION_GUARD_(g, &root);
    // self_rec: 90 frames, 135 ms; self_child: 30 visits, 15 ms. Enough
    // episodes for the events to take the lanes (the first ones take the
    // general paths, which read the clock).
    for (int i = 0; i < 2; ++i) self_rec(3);
    const uint64_t before = hcc::rt::testing::general_enters();
    for (int i = 2; i < 30; ++i) self_rec(3);
    slow = hcc::rt::testing::general_enters() - before;
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(hcc::rt::testing::recursion_mode());
  // After the warm-up the enters of self_rec's own frames take recursion
  // mode's lane; the one that begins the mode and self_child's (self_rec's
  // proxy caches its last entry, and here it alternates) the general path.
  if (hcc::rt::testing::fast_path_available()) EXPECT_LE(slow, 28u * 3) << "the lane was never taken";
  auto p = hcc::rt::testing::build_profile_now();
  const int s = find_path(p, {"test_self", "self_rec"}), c = find_path(p, {"test_self", "self_rec", "self_child"});
  ASSERT_GE(s, 0);
  ASSERT_GE(c, 0);
  EXPECT_EQ(total(p, "visits", s), 90.0);
  EXPECT_EQ(total(p, "visits", c), 30.0);
  EXPECT_EQ(total(p, "recursion_depth", s), 3.0);
  EXPECT_GE(total(p, "time", s), self_spun * 0.999) << "self_rec spun " << self_spun << " s";
  EXPECT_GE(total(p, "time", c), self_child_spun * 0.999) << "self_child spun " << self_child_spun << " s";
  // A third of what one pre-call spin per episode would add (30 ms in all).
  EXPECT_LT(total(p, "time", c), self_child_spun + 0.010)
      << "self_child has " << total(p, "time", c) << " s; it spun " << self_child_spun << " s";
  expect_times_sane(p, wall);
}

TEST_REGION(a_region, "a");
TEST_REGION(b_region, "b");

TEST(Fold, NodeOpenTwiceIsCountedOnce) {
  // a -> b -> a' -> b': b' is the node of b (a child of a), open twice.
  TEST_REGION(root, "test_twice");
  auto t0 = std::chrono::steady_clock::now();
  hcc_enter(&root);
  hcc_enter(&a_region);
  hcc_enter(&b_region);
  tu::spin_ms(1);
  hcc_enter(&a_region);
  EXPECT_TRUE(hcc::rt::testing::recursion_mode());
  hcc_enter(&b_region);
  tu::spin_ms(6);
  hcc_exit(&b_region);
  EXPECT_TRUE(hcc::rt::testing::recursion_mode());
  hcc_exit(&a_region);  // the folded frame that began the mode
  EXPECT_FALSE(hcc::rt::testing::recursion_mode());
  tu::spin_ms(1);
  hcc_exit(&b_region);
  hcc_exit(&a_region);
  hcc_exit(&root);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto p = hcc::rt::testing::build_profile_now();
  const int b = find_path(p, {"test_twice", "a", "b"});
  ASSERT_GE(b, 0);
  EXPECT_EQ(total(p, "visits", b), 2.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_twice", "a"})), 2.0);
  EXPECT_EQ(total(p, "recursion_depth", b), 2.0);
  // 8 ms of b's own; counting the outer frame whole as well would put 6 ms
  // twice into the profile, more than the test's own clock saw (checked by
  // expect_times_sane).
  EXPECT_GE(total(p, "time", b), 0.008 * 0.999);
  expect_times_sane(p, wall);
}

TEST(Fold, SkippedExitsInsideRecursionAreRepaired) {
  TEST_REGION(root, "test_fold_repair");
  TEST_REGION(later, "later");
  auto t0 = std::chrono::steady_clock::now();
  hcc_enter(&root);
  hcc_enter(&a_region);
  hcc_enter(&a_region);
  hcc_enter(&a_region);
  hcc_enter(&b_region);
  tu::spin_ms(1);
  hcc_exit(&a_region);  // b's exit was skipped: b and the innermost a close
  EXPECT_EQ(hcc::rt::testing::open_frames(), 3u);
  EXPECT_TRUE(hcc::rt::testing::recursion_mode());
  hcc_exit(&a_region);
  EXPECT_FALSE(hcc::rt::testing::recursion_mode());
  hcc_enter(&later);  // under a, not under b
  hcc_exit(&later);
  hcc_exit(&a_region);
  hcc_exit(&root);
  EXPECT_EQ(hcc::rt::testing::open_frames(), 0u);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_repair", "a"})), 3.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_repair", "a", "b"})), 1.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_repair", "a", "later"})), 1.0);
  EXPECT_GE(total(p, "time", find_path(p, {"test_fold_repair", "a", "b"})), 0.001 * 0.999);
  EXPECT_EQ(total(p, "recursion_depth", find_path(p, {"test_fold_repair", "a"})), 3.0);
  expect_times_sane(p, wall);
}

TEST(Fold, LongjmpOutOfARecursionClosesItsFrames) {
  TEST_REGION(root, "test_fold_longjmp");
  TEST_REGION(after, "after_jump");
  hcc_enter(&root);
  ASSERT_EQ(hcc_test_jump_from_recursion(9), 1);  // ping pong ping ... 9 frames, then the jump
  EXPECT_EQ(hcc::rt::testing::open_frames(), 1u);
  EXPECT_FALSE(hcc::rt::testing::recursion_mode());
  hcc_enter(&after);
  hcc_exit(&after);
  hcc_exit(&root);
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_longjmp", "lj_ping"})), 5.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_longjmp", "lj_ping", "lj_pong"})), 4.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_longjmp", "after_jump"})), 1.0);
  EXPECT_EQ(find_path(p, {"test_fold_longjmp", "lj_ping", "lj_pong", "after_jump"}), -1);
  EXPECT_EQ(find_path(p, {"test_fold_longjmp", "lj_ping", "after_jump"}), -1);
}

TEST(Fold, ProfileBuiltInsideARecursionCountsOpenFramesUpToNow) {
  TEST_REGION(root, "test_fold_open");
  auto t0 = std::chrono::steady_clock::now();
  hcc_enter(&root);
  hcc_enter(&a_region);
  tu::spin_ms(1);
  hcc_enter(&b_region);
  hcc_enter(&a_region);
  tu::spin_ms(3);
  auto p = hcc::rt::testing::build_profile_now();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(hcc::rt::testing::recursion_mode());  // building changed nothing
  EXPECT_EQ(hcc::rt::testing::open_frames(), 4u);
  hcc_exit(&a_region);
  hcc_exit(&b_region);
  hcc_exit(&a_region);
  hcc_exit(&root);
  const int a = find_path(p, {"test_fold_open", "a"});
  EXPECT_GE(total(p, "time", a), 0.004 * 0.999);  // both spins are a's own
  EXPECT_LT(total(p, "time", find_path(p, {"test_fold_open", "a", "b"})), 0.003 * 0.999);
  EXPECT_GE(tu::inclusive_total(p, "time", find_path(p, {"test_fold_open"})), 0.004 * 0.999);
  expect_times_sane(p, wall);
  // And again once everything closed: the same call paths, more time.
  auto q = hcc::rt::testing::build_profile_now();
  EXPECT_GE(total(q, "time", find_path(q, {"test_fold_open", "a"})), total(p, "time", a));
}

TEST(Fold, PausedTimeInsideARecursionIsTheCallers) {
  TEST_REGION(root, "test_fold_pause");
  TEST_REGION(skipped, "skipped");
  hcc_enter(&root);
  hcc_enter(&a_region);
  hcc_enter(&a_region);
  hcc_pause();
  hcc_enter(&skipped);
  tu::spin_ms(2);
  hcc_exit(&skipped);
  hcc_resume();
  hcc_exit(&a_region);
  hcc_exit(&a_region);
  hcc_exit(&root);
  EXPECT_EQ(hcc::rt::testing::open_frames(), 0u);
  EXPECT_FALSE(hcc::rt::testing::recursion_mode());
  auto p = hcc::rt::testing::build_profile_now();
  for (const auto &c : p.cnodes) EXPECT_NE(p.regions[size_t(c.region)].name, "skipped") << "recorded while paused";
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_pause", "a"})), 2.0);
  EXPECT_GE(total(p, "time", find_path(p, {"test_fold_pause", "a"})), 0.002 * 0.999);
}

TEST(Fold, ThreadsFoldTheirOwnRecursionIntoOneMergedCallPath) {
  TEST_REGION(root, "test_fold_threads");
  auto body = [&] {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 10; ++i) ping(1, i);
  };
  std::thread t1(body), t2(body);
  t1.join();
  t2.join();
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_threads", "ping"})), 2 * 350.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_threads", "ping", "pong"})), 2 * 380.0);
  EXPECT_EQ(p.cnodes.size(), 5u);
}

TEST(Fold, CounterAddedInRecursionModeLandsOnItsNode) {
  // A metric service's counter added while folded frames are open (the
  // service API counts on the top frame) belongs to the node they fold into.
  const int k = hcc::rt::testing::register_extra_metric("test_bytes", /*inclusive_counts=*/false);
  ASSERT_GE(k, 0);
  TEST_REGION(root, "test_fold_counter");
  hcc_enter(&root);
  hcc_enter(&a_region);
  EXPECT_TRUE(hcc::rt::testing::add_to_extra_counter(uint32_t(k), 1));
  hcc_enter(&a_region);
  EXPECT_TRUE(hcc::rt::testing::add_to_extra_counter(uint32_t(k), 10));
  hcc_enter(&b_region);
  EXPECT_TRUE(hcc::rt::testing::add_to_extra_counter(uint32_t(k), 100));
  hcc_exit(&b_region);
  hcc_exit(&a_region);
  hcc_exit(&a_region);
  hcc_exit(&root);
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(total(p, "test_bytes", find_path(p, {"test_fold_counter", "a"})), 11.0);
  EXPECT_EQ(total(p, "test_bytes", find_path(p, {"test_fold_counter", "a", "b"})), 100.0);
}

}  // namespace

namespace {

TEST(Fold, ParallelRegionForkedInsideARecursionHandsWorkersTheFoldedPath) {
  // What the instrumentor writes around `#pragma omp parallel`, driven by
  // hand: the master forks from inside a folded recursion (a -> a'), a
  // worker thread begins with the master's token.
  static POMP2_Region_handle h = nullptr;
  const char *ctc = "60*regionType=parallel*sscl=fold_test.cpp:1:1*escl=fold_test.cpp:2:2**";
  TEST_REGION(root, "test_fold_omp");
  TEST_REGION(work, "omp_work");
  hcc_enter(&root);
  hcc_enter(&a_region);
  hcc_enter(&a_region);
  ASSERT_TRUE(hcc::rt::testing::recursion_mode());
  POMP2_Task_handle team = 0;
  POMP2_Parallel_fork(&h, 1, 2, &team, ctc);
  std::thread worker([&] {
    hcc_pomp_parallel_begin(&h, team);
    // The adopted path is the folded one, root -> a, not the master's stack.
    EXPECT_EQ(hcc::rt::testing::open_frames(), 3u);
    EXPECT_FALSE(hcc::rt::testing::recursion_mode());
    hcc_enter(&work);
    hcc_exit(&work);
    POMP2_Parallel_end(&h);
    EXPECT_EQ(hcc::rt::testing::open_frames(), 0u);
  });
  hcc_pomp_parallel_begin(&h, team);
  hcc_enter(&work);
  hcc_exit(&work);
  POMP2_Parallel_end(&h);
  worker.join();
  POMP2_Parallel_join(&h, team);
  hcc_exit(&a_region);
  hcc_exit(&a_region);
  hcc_exit(&root);
  auto p = hcc::rt::testing::build_profile_now();
  const std::string par = "!$omp parallel @fold_test.cpp:1";
  const int w = find_path(p, {"test_fold_omp", "a", par, "omp_work"});
  ASSERT_GE(w, 0) << "the parallel region is not below the folded call path";
  EXPECT_EQ(total(p, "visits", w), 2.0);  // master and worker, one call path
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_omp", "a", par})), 2.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fold_omp", "a"})), 2.0);  // the worker's copy has none
  EXPECT_EQ(find_path(p, {"test_fold_omp", "a", "a"}), -1);
  EXPECT_EQ(p.nloc(), 2u);
}

}  // namespace

// Threads: every thread that runs instrumented code becomes a location, and
// the threads' trees merge by call path.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include "test_util.hpp"

using tu::find_path;

namespace {

TEST_REGION(worker_region, "worker");
TEST_REGION(work_region, "work");
TEST_REGION(shared_region, "shared_helper");

void shared_helper() { HCC_FUNCTION_GUARD_(g, &shared_region); }

void worker(int n) {
  HCC_FUNCTION_GUARD_(g, &worker_region);
  for (int i = 0; i < n; ++i) {
    HCC_FUNCTION_GUARD_(w, &work_region);
    shared_helper();
  }
}

TEST(Threads, FourThreadsAreFourMoreLocationsAndTreesMerge) {
  TEST_REGION(root, "test_threads");
  hcc_enter(&root);  // the main thread is a location from here on
  size_t before = hcc::rt::testing::build_profile_now().locations.size();
  std::vector<std::thread> ts;
  for (int i = 0; i < 4; ++i) ts.emplace_back(worker, 100 * (i + 1));
  for (auto &t : ts) t.join();
  shared_helper();
  hcc_exit(&root);

  auto p = hcc::rt::testing::build_profile_now();
  ASSERT_EQ(p.locations.size(), before + 4);
  if (::testing::UnitTest::GetInstance()->test_to_run_count() == 1)
    EXPECT_EQ(p.locations.size(), 5u);  // alone in its process (as under CTest): main + 4
  for (size_t l = 0; l < p.nloc(); ++l) {
    EXPECT_EQ(p.locations[l].name, "thread " + std::to_string(l));
    EXPECT_EQ(p.locations[l].thread, int(l));
    EXPECT_EQ(p.locations[l].rank, 0);
  }
  // A worker's root is its own function; the four trees are one call path.
  int w = find_path(p, {"worker"});
  int work = find_path(p, {"worker", "work", "shared_helper"});
  ASSERT_GE(w, 0);
  ASSERT_GE(work, 0);
  int visits = p.metric_index("visits");
  std::vector<double> per_thread;
  for (size_t l = 0; l < p.nloc(); ++l)
    if (p.at(size_t(visits), size_t(w), l) > 0) per_thread.push_back(p.at(size_t(visits), size_t(work), l));
  // Each worker on its own location, with its own counts (100, 200, 300, 400).
  ASSERT_EQ(per_thread.size(), 4u);
  std::sort(per_thread.begin(), per_thread.end());
  EXPECT_EQ(per_thread, (std::vector<double>{100, 200, 300, 400}));
  // The main thread's call of the helper is a different call path.
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"test_threads", "shared_helper"})), 1.0);
  // Time relations hold per location as well.
  int time = p.metric_index("time");
  for (size_t c = 0; c < p.cnodes.size(); ++c)
    for (size_t l = 0; l < p.nloc(); ++l) EXPECT_GE(p.at(size_t(time), c, l), -1e-12);
}

TEST(Threads, ThreadThatNeverEntersARegionIsNoLocation) {
  TEST_REGION(root, "test_no_location");
  hcc_enter(&root);
  size_t before = hcc::rt::testing::build_profile_now().locations.size();
  std::thread([] {
    TEST_REGION(x, "x");
    hcc_exit(&x);  // an exit alone does not make a location
    hcc_setjmp_mark(&x);
  }).join();
  hcc_exit(&root);
  EXPECT_EQ(hcc::rt::testing::build_profile_now().locations.size(), before);
}

TEST(Threads, FramesLeftOpenAtThreadExitAreClosedThen) {
  // pthread_exit from C code without unwinding leaves frames open; they are
  // closed when the thread ends, not when the process does.
  TEST_REGION(root, "test_thread_exit");
  TEST_REGION(left_open, "left_open");
  hcc_enter(&root);
  auto t0 = std::chrono::steady_clock::now();
  std::thread([&] {
    hcc_enter(&left_open);
    tu::spin_ms(1);
  }).join();
  double thread_life = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  tu::spin_ms(20);  // had the frame stayed open, it would count this too
  hcc_exit(&root);
  auto p = hcc::rt::testing::build_profile_now();
  int c = find_path(p, {"left_open"});
  ASSERT_GE(c, 0);
  EXPECT_GE(tu::total(p, "time", c), 0.001 * 0.999);
  EXPECT_LE(tu::total(p, "time", c), thread_life * 1.001 + 1e-6);
}

}  // namespace

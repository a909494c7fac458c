// Control flow (runtime/core/cfg.hpp): the previous-node rules, on real
// events through libhcc's ABI. A predecessor list is written as the report
// prints it: "name:count,..." summed over locations, the parent first.
#include <gtest/gtest.h>

#include <thread>

#include "hcc/hcc.h"
#include "longjmp_helpers.h"
#include "test_util.hpp"

using tu::find_path;
using tu::preds;

namespace {

TEST_REGION(foo_region, "foo");
TEST_REGION(bar_region, "bar");
void foo() { HCC_FUNCTION_GUARD_(g, &foo_region); }
void bar() { HCC_FUNCTION_GUARD_(g, &bar_region); }

TEST(ControlFlow, ParentIsTheFirstChildsPredecessorThenTheSiblingThatReturned) {
  TEST_REGION(root, "cfg_version_a");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 20; ++i) {
      foo();
      bar();
    }
  }
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(preds(p, find_path(p, {"cfg_version_a", "foo"})), "cfg_version_a:1,bar:19");
  EXPECT_EQ(preds(p, find_path(p, {"cfg_version_a", "bar"})), "foo:20");
  // A root's first visit follows the thread's start, which is no call path.
  EXPECT_EQ(preds(p, find_path(p, {"cfg_version_a"})), "");
}

TEST(ControlFlow, ARepeatedCallIsItsOwnPredecessor) {
  TEST_REGION(root, "cfg_version_b");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 20; ++i) foo();
    for (int i = 0; i < 20; ++i) bar();
  }
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(preds(p, find_path(p, {"cfg_version_b", "foo"})), "cfg_version_b:1,foo:19");
  EXPECT_EQ(preds(p, find_path(p, {"cfg_version_b", "bar"})), "foo:1,bar:19");
}

TEST_REGION(x_region, "X");
TEST_REGION(a_region, "A");
TEST_REGION(b_region, "B");
void a_calls_x() {
  HCC_FUNCTION_GUARD_(g, &a_region);
  HCC_FUNCTION_GUARD_(gx, &x_region);
}
void b() { HCC_FUNCTION_GUARD_(g, &b_region); }

TEST(ControlFlow, AfterAChildReturnsTheCallerNotTheChildPrecedesTheNextSibling) {
  TEST_REGION(root, "cfg_children");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 3; ++i) {
      a_calls_x();
      b();
    }
  }
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(preds(p, find_path(p, {"cfg_children", "B"})), "A:3");
  EXPECT_EQ(preds(p, find_path(p, {"cfg_children", "A", "X"})), "A:3");
  EXPECT_EQ(preds(p, find_path(p, {"cfg_children", "A"})), "cfg_children:1,B:2");
}

// The enter counts in the successor slot (cfg.hpp: `pending`) and a slot
// refilled with another node hands its count to the list: foo's exit slot
// names bar and foo in turn (refilled 19 times), bar's always foo (never
// refilled, its 10 still in the slot). Read while the frames are open and
// after: exact both times.
TEST(ControlFlow, CountsHeldInARefilledSlotAreNeitherLostNorCountedTwice) {
  TEST_REGION(root, "cfg_refill");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 30; ++i) {
      foo();
      if (i % 3 == 0) bar();
    }
    auto open = hcc::rt::testing::build_profile_now();
    EXPECT_EQ(preds(open, find_path(open, {"cfg_refill", "foo"})), "cfg_refill:1,bar:10,foo:19");
    EXPECT_EQ(preds(open, find_path(open, {"cfg_refill", "bar"})), "foo:10");
    foo();  // after foo's exit, as 19 times before: counted once more, nothing else moves
  }
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(preds(p, find_path(p, {"cfg_refill", "foo"})), "cfg_refill:1,bar:10,foo:20");
  EXPECT_EQ(preds(p, find_path(p, {"cfg_refill", "bar"})), "foo:10");
}

TEST(ControlFlow, PredecessorsAreCountedPerThread) {
  TEST_REGION(root, "cfg_threads");
  auto body = [&](int n) {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < n; ++i) {
      foo();
      bar();
    }
  };
  body(5);
  std::thread t(body, 7);
  t.join();
  auto p = hcc::rt::testing::build_profile_now();
  const int f = find_path(p, {"cfg_threads", "foo"});
  ASSERT_GE(f, 0);
  ASSERT_EQ(p.preds[size_t(f)].size(), 2u);
  ASSERT_EQ(p.nloc(), 2u);
  EXPECT_EQ(p.preds[size_t(f)][1].count, (std::vector<double>{4, 6}));  // bar -> foo
  EXPECT_EQ(p.preds[size_t(f)][0].count, (std::vector<double>{1, 1}));  // the parent
}

TEST_REGION(fib_region, "fib");
int fib(int n) {
  HCC_FUNCTION_GUARD_(g, &fib_region);
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

TEST(ControlFlow, FoldedRecursionCountsOnTheNodeItRecursesInto) {
  TEST_REGION(root, "cfg_fib");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    EXPECT_EQ(fib(15), 610);
  }
  auto p = hcc::rt::testing::build_profile_now();
  // fib(15) makes 1973 calls: the outermost follows its caller, every other
  // follows a fib frame (its caller or the sibling call that returned), and
  // all of them are counted on the one folded call path.
  EXPECT_EQ(preds(p, find_path(p, {"cfg_fib", "fib"})), "cfg_fib:1,fib:1972");
}

TEST_REGION(ping_region, "ping");
TEST_REGION(pong_region, "pong");
void ping(int n);
void pong(int n) {
  HCC_FUNCTION_GUARD_(g, &pong_region);
  if (n > 0) ping(n - 1);
}
void ping(int n) {
  HCC_FUNCTION_GUARD_(g, &ping_region);
  pong(n);
}

TEST(ControlFlow, IndirectRecursionCountsTheCallerBelowAsPredecessor) {
  TEST_REGION(root, "cfg_ping");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    ping(3);  // ping pong ping' pong' ping'' pong'' ping''' pong'''
  }
  auto p = hcc::rt::testing::build_profile_now();
  // ping' is counted on main/ping and entered from pong (its child in the tree).
  EXPECT_EQ(preds(p, find_path(p, {"cfg_ping", "ping"})), "cfg_ping:1,pong:3");
  EXPECT_EQ(preds(p, find_path(p, {"cfg_ping", "ping", "pong"})), "ping:4");
}

TEST_REGION(after_region, "lj_after");

TEST(ControlFlow, LongjmpClosesFramesAsIfEachHadExited) {
  TEST_REGION(root, "cfg_longjmp");
  hcc_enter(&root);
  ASSERT_EQ(hcc_test_jump(HCC_TEST_LONGJMP, 1), 1);  // lj_level1 -> 2 -> 3 jumps back
  hcc_enter(&after_region);
  hcc_exit(&after_region);
  hcc_exit(&root);
  auto p = hcc::rt::testing::build_profile_now();
  // The abandoned lj_level1 is the last frame closed under the caller.
  EXPECT_EQ(preds(p, find_path(p, {"cfg_longjmp", "lj_after"})), "lj_level1:1");
}

TEST(ControlFlow, ExitRepairMakesTheRepairedFrameThePredecessor) {
  TEST_REGION(root, "cfg_repair");
  hcc_enter(&root);
  hcc_enter(&a_region);
  hcc_enter(&x_region);
  hcc_exit(&a_region);  // X's exit was skipped: both close here
  b();
  hcc_exit(&root);
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(preds(p, find_path(p, {"cfg_repair", "B"})), "A:1");
}

TEST(ControlFlow, NamedUserRegionsAndPauseFollowTheSameRules) {
  TEST_REGION(root, "cfg_user");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 4; ++i) {
      hcc_region_begin("phase_a");
      foo();
      hcc_region_end("phase_a");
      hcc_pause();  // nothing entered while paused touches the previous node
      bar();
      hcc_resume();
      hcc_region_begin("phase_b");
      hcc_region_end("phase_b");
    }
  }
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(preds(p, find_path(p, {"cfg_user", "phase_a"})), "cfg_user:1,phase_b:3");
  EXPECT_EQ(preds(p, find_path(p, {"cfg_user", "phase_a", "foo"})), "phase_a:4");
  EXPECT_EQ(preds(p, find_path(p, {"cfg_user", "phase_b"})), "phase_a:4");
  EXPECT_EQ(find_path(p, {"cfg_user", "bar"}), -1);
}

TEST_REGION(deep_region, "deep");
TEST_REGION(level_region, "level");

TEST(ControlFlow, TheDepthCutNodeCountsPredecessorsAndNothingBelowIt) {
  hcc::rt::testing::set_max_depth_for_new_threads(2);
  std::thread t([] {
    hcc_enter(&deep_region);
    for (int i = 0; i < 3; ++i) {
      hcc_enter(&level_region);  // depth 2
      hcc_enter(&a_region);      // the cut node
      hcc_enter(&b_region);      // below the cut
      hcc_exit(&b_region);
      hcc_exit(&a_region);
      hcc_exit(&level_region);
    }
    hcc_exit(&deep_region);
  });
  t.join();
  hcc::rt::testing::set_max_depth_for_new_threads(1024);
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(preds(p, find_path(p, {"deep", "level"})), "deep:1,level:2");
  EXPECT_EQ(preds(p, find_path(p, {"deep", "level", "[depth limit HCC_MAX_DEPTH=2 reached]"})), "level:3");
}

}  // namespace

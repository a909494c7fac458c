// Call-context tree: visits, call paths, time relations, the depth cut and
// the repair of unbalanced exits, on the calling thread.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "test_util.hpp"

using tu::find_path;
using tu::total;

namespace {

TEST_REGION(fib_region, "fib");

int fib(int n) {
  HCC_FUNCTION_GUARD_(g, &fib_region);
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

TEST(Cct, RecursiveFibIsOneCallPathWithEveryVisit) {
  TEST_REGION(root, "test_fib");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    EXPECT_EQ(fib(20), 6765);
  }
  auto p = hcc::rt::testing::build_profile_now();
  // Recursion is folded: every fib call is counted on test_fib/fib, and the
  // depth it reached (fib(20) -> fib(19) -> ... -> fib(1)) is a metric.
  const int f = find_path(p, {"test_fib", "fib"});
  ASSERT_GE(f, 0);
  EXPECT_EQ(total(p, "visits", f), 21891.0);
  EXPECT_EQ(find_path(p, {"test_fib", "fib", "fib"}), -1);
  EXPECT_TRUE(tu::children(p, f).empty());
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_fib"})), 1.0);
  const int depth = p.metric_index("recursion_depth");
  ASSERT_GE(depth, 0);
  EXPECT_EQ(p.metrics[size_t(depth)].dtype, hcc::profile::DType::MaxDouble);
  EXPECT_EQ(total(p, "recursion_depth", f), 20.0);
  EXPECT_EQ(total(p, "recursion_depth", find_path(p, {"test_fib"})), 1.0);
}

TEST_REGION(a_region, "a");
TEST_REGION(b_region, "b");
TEST_REGION(c_region, "c");
void c() { HCC_FUNCTION_GUARD_(g, &c_region); }
void b() {
  HCC_FUNCTION_GUARD_(g, &b_region);
  c();
}
void a() {
  HCC_FUNCTION_GUARD_(g, &a_region);
  b();
  c();
  b();
}

TEST(Cct, CallPathsAreKeptApart) {
  TEST_REGION(root, "test_paths");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 3; ++i) a();
    c();
  }
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_paths", "a"})), 3.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_paths", "a", "b"})), 6.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_paths", "a", "b", "c"})), 6.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_paths", "a", "c"})), 3.0);
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_paths", "c"})), 1.0);
  EXPECT_EQ(find_path(p, {"test_paths", "b"}), -1);
  EXPECT_EQ(tu::children(p, find_path(p, {"test_paths"})).size(), 2u);
  // Regions and call paths are described as the model says.
  const auto &ra = p.regions[p.cnodes[find_path(p, {"test_paths", "a"})].region];
  EXPECT_EQ(ra.paradigm, "compiler");
  EXPECT_EQ(ra.role, "function");
  EXPECT_NE(ra.file.find("cct_test.cpp"), std::string::npos);
  EXPECT_NO_THROW(hcc::profile::validate(p));
  for (size_t c = 0; c < p.cnodes.size(); ++c)
    EXPECT_LT(p.cnodes[c].parent, int(c)) << "call paths must be numbered parents first";
}

TEST(Cct, ManyChildrenUseTheTableAndStayDistinct) {
  // 40 distinct children of one node, called round robin: exercises the
  // sibling list, its switch to a hash table, and table growth.
  static hcc_region_desc kids[40];
  static std::string names[40];
  for (int i = 0; i < 40; ++i) {
    names[i] = "kid" + std::to_string(i);
    kids[i] = {names[i].c_str(), nullptr, "x.c", i, i, HCC_KIND_FUNCTION, 0};
  }
  TEST_REGION(root, "test_many");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int round = 0; round < 5; ++round)
      for (int i = 0; i < 40; ++i) {
        hcc_enter(&kids[i]);
        hcc_exit(&kids[i]);
      }
  }
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(tu::children(p, find_path(p, {"test_many"})).size(), 40u);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(total(p, "visits", find_path(p, {"test_many", names[i]})), 5.0);
}

TEST(Cct, SameFunctionFromTwoDescriptorsIsOneRegion) {
  // A static inline function compiled into two files has two descriptors.
  static hcc_region_desc d1 = {"inl", "_Z3inlv", "h.h", 3, 5, HCC_KIND_FUNCTION, 0};
  static hcc_region_desc d2 = {"inl", "_Z3inlv", "h.h", 3, 5, HCC_KIND_FUNCTION, 0};
  TEST_REGION(root, "test_dedup");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    hcc_enter(&d1);
    hcc_exit(&d2);  // exits by the other descriptor still match
    hcc_enter(&d2);
    hcc_exit(&d2);
  }
  EXPECT_EQ(d1.id, d2.id);
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_dedup", "inl"})), 2.0);
  EXPECT_EQ(hcc::rt::testing::open_frames(), 0u);
}

TEST(Cct, GccTemplateNamesAreWrittenLikeClangs) {
  static hcc_region_desc gcc = {"T add(T, U) [with T = int; U = std::pair<int, char>]", nullptr, "t.cpp",
                                1, 2, HCC_KIND_FUNCTION, 0};
  static hcc_region_desc loop = {"loop in f", nullptr, "t.cpp", 3, 4, HCC_KIND_LOOP, 0};
  TEST_REGION(root, "test_names");
  {
    HCC_FUNCTION_GUARD_(g, &root);
    hcc_enter(&gcc);
    hcc_exit(&gcc);
    hcc_enter(&loop);
    hcc_exit(&loop);
  }
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_GE(find_path(p, {"test_names", "T add(T, U) [T = int, U = std::pair<int, char>]"}), 0);
  int r = tu::region_id(p, "loop in f");
  ASSERT_GE(r, 0);
  EXPECT_EQ(p.regions[r].paradigm, "user");
  EXPECT_EQ(p.regions[r].role, "loop");
}

TEST_REGION(outer_region, "outer");
TEST_REGION(inner_region, "inner");

TEST(Cct, InclusiveTimeIsExclusivePlusChildrenAndNeverNegative) {
  TEST_REGION(root, "test_time");
  auto t0 = std::chrono::steady_clock::now();
  {
    HCC_FUNCTION_GUARD_(g, &root);
    for (int i = 0; i < 2; ++i) {
      HCC_FUNCTION_GUARD_(go, &outer_region);
      tu::spin_ms(2);
      {
        HCC_FUNCTION_GUARD_(gi, &inner_region);
        tu::spin_ms(3);
      }
    }
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto p = hcc::rt::testing::build_profile_now();
  int root_c = find_path(p, {"test_time"});
  int outer_c = find_path(p, {"test_time", "outer"});
  int inner_c = find_path(p, {"test_time", "outer", "inner"});
  ASSERT_GE(inner_c, 0);
  // Spins give lower bounds; the test's own clock gives an upper bound.
  EXPECT_GE(total(p, "time", inner_c), 0.006 * 0.999);
  EXPECT_GE(total(p, "time", outer_c), 0.004 * 0.999);
  EXPECT_GE(tu::inclusive_total(p, "time", outer_c), 0.010 * 0.999);
  EXPECT_LE(tu::inclusive_total(p, "time", root_c), wall * 1.001 + 1e-6);
  // The model's inclusive values agree with ours, and no node, on any
  // location, has more time in its children than in itself.
  auto incl = hcc::profile::inclusive(p, size_t(p.metric_index("time")));
  for (size_t c = 0; c < p.cnodes.size(); ++c)
    for (size_t l = 0; l < p.nloc(); ++l) {
      double ex = p.at(size_t(p.metric_index("time")), c, l);
      EXPECT_GE(ex, -1e-12) << "negative exclusive time at call path " << c << " location " << l;
      EXPECT_NEAR(incl[c * p.nloc() + l], tu::inclusive_at(p, "time", int(c), l), 1e-9);
    }
  EXPECT_EQ(p.metrics[0].uniq_name, "time");
  EXPECT_EQ(p.metrics[0].cube_type, hcc::profile::CubeType::Inclusive);
  EXPECT_EQ(p.metrics[1].uniq_name, "visits");
  EXPECT_EQ(p.metrics[1].dtype, hcc::profile::DType::UInt64);
}

TEST(Cct, OpenFramesCountUpToNowWithoutBeingClosed) {
  TEST_REGION(root, "test_open");
  hcc_enter(&root);
  hcc_enter(&outer_region);
  tu::spin_ms(2);
  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_GE(total(p, "time", find_path(p, {"test_open", "outer"})), 0.002 * 0.999);
  EXPECT_EQ(hcc::rt::testing::open_frames(), 2u);  // building changed nothing
  hcc_exit(&outer_region);
  hcc_exit(&root);
  EXPECT_EQ(hcc::rt::testing::open_frames(), 0u);
}

TEST(Cct, SkippedExitsAreRepaired) {
  TEST_REGION(root, "test_repair");
  TEST_REGION(later, "later");
  TEST_REGION(never, "never_entered");
  TEST_REGION(stray, "stray");
  hcc_enter(&root);
  hcc_enter(&a_region);
  hcc_enter(&b_region);
  hcc_enter(&c_region);
  tu::spin_ms(1);
  hcc_exit(&never);  // never entered: ignored
  EXPECT_EQ(hcc::rt::testing::open_frames(), 4u);
  hcc_enter(&stray);
  hcc_exit(&stray);
  hcc_exit(&stray);  // a second, spurious exit: ignored
  EXPECT_EQ(hcc::rt::testing::open_frames(), 4u);
  hcc_exit(&a_region);  // the exits of c and b were skipped
  EXPECT_EQ(hcc::rt::testing::open_frames(), 1u);
  hcc_enter(&later);  // lands under test_repair, not under c
  hcc_exit(&later);
  hcc_exit(&root);
  hcc_exit(&root);  // nothing open any more: ignored
  EXPECT_EQ(hcc::rt::testing::open_frames(), 0u);

  auto p = hcc::rt::testing::build_profile_now();
  EXPECT_EQ(total(p, "visits", find_path(p, {"test_repair", "later"})), 1.0);
  EXPECT_EQ(find_path(p, {"test_repair", "a", "b", "c", "later"}), -1);
  int c_node = find_path(p, {"test_repair", "a", "b", "c"});
  EXPECT_GE(total(p, "time", c_node), 0.001 * 0.999);  // closed at the repair
  EXPECT_GE(tu::inclusive_total(p, "time", find_path(p, {"test_repair", "a"})), 0.001 * 0.999);
  EXPECT_EQ(tu::region_id(p, "never_entered"), -1);
}

TEST_REGION(deep_region, "deep");
TEST_REGION(bottom_region, "bottom");
TEST_REGION(after_region, "after_deep");

void recurse(int n) {
  HCC_FUNCTION_GUARD_(g, &deep_region);
  if (n > 1) {
    recurse(n - 1);
  } else {
    HCC_FUNCTION_GUARD_(gb, &bottom_region);
    tu::spin_ms(1);
  }
}

TEST(Cct, DepthLimitKeepsOneArtificialNode) {
  hcc::rt::testing::set_max_depth_for_new_threads(10);
  uint32_t open_in_cut = 99, below_in_cut = 99, open_after = 99, below_after = 99;
  std::thread t([&] {
    recurse(50);
    recurse(50);
    {
      HCC_FUNCTION_GUARD_(g, &after_region);
    }
    open_after = hcc::rt::testing::open_frames();
    below_after = hcc::rt::testing::open_below_cut();
    hcc_enter(&deep_region);
    for (int i = 0; i < 15; ++i) hcc_enter(&deep_region);
    open_in_cut = hcc::rt::testing::open_frames();
    below_in_cut = hcc::rt::testing::open_below_cut();
    for (int i = 0; i < 16; ++i) hcc_exit(&deep_region);
  });
  t.join();
  hcc::rt::testing::set_max_depth_for_new_threads(1024);
  EXPECT_EQ(open_in_cut, 11u);  // 10 frames + the artificial node
  EXPECT_EQ(below_in_cut, 5u);
  EXPECT_EQ(open_after, 0u);
  EXPECT_EQ(below_after, 0u);

  auto p = hcc::rt::testing::build_profile_now();
  // The cut counts open frames, folded ones included: 10 frames of `deep`
  // (one call path), then the artificial node below it.
  int deep = find_path(p, {"deep"});
  ASSERT_GE(deep, 0);
  int cut = find_path(p, {"deep", "[depth limit HCC_MAX_DEPTH=10 reached]"});
  ASSERT_GE(cut, 0);
  EXPECT_EQ(tu::children(p, cut).size(), 0u);  // nothing below the cut is recorded
  EXPECT_EQ(total(p, "visits", cut), 3.0);     // two recursions + the manual one
  EXPECT_EQ(total(p, "visits", deep), 30.0);   // 10 recorded frames each time
  EXPECT_EQ(total(p, "recursion_depth", deep), 10.0);
  EXPECT_GE(total(p, "time", cut), 0.002 * 0.999);  // both bottoms' spins are below the cut
  const auto &r = p.regions[p.cnodes[cut].region];
  EXPECT_EQ(r.paradigm, "measurement");
  EXPECT_EQ(r.role, "artificial");
  EXPECT_EQ(total(p, "visits", find_path(p, {"after_deep"})), 1.0);  // a root again
  for (const auto &c : p.cnodes) EXPECT_NE(p.regions[c.region].name, "bottom") << "recorded below the cut";
  bool dropped_attr = false;
  for (auto &[k, v] : p.attrs)
    if (k == "calls below the depth limit") dropped_attr = std::stoul(v) >= 2 * 40 + 5;
  EXPECT_TRUE(dropped_attr);
}

}  // namespace

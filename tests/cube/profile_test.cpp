// The profile model: tree queries, inclusive sums, validation, row orders.
#include <gtest/gtest.h>

#include "cubex.hpp"
#include "test_util.hpp"

using namespace hcc_test;

TEST(Profile, MetricIndexFindsByUniqName) {
  const Profile p = sample_profile();
  EXPECT_EQ(p.metric_index("time"), 0);
  EXPECT_EQ(p.metric_index("visits"), 1);
  EXPECT_EQ(p.metric_index("Time"), -1);
}

TEST(Profile, ChildrenAndRoots) {
  Profile p = sample_profile();
  p.cnodes.push_back({0, -1});  // a second root
  const auto kids = children_of(p);
  ASSERT_EQ(kids.size(), 5u);
  EXPECT_EQ(kids[0], (std::vector<int>{1, 3}));
  EXPECT_EQ(kids[1], (std::vector<int>{2}));
  EXPECT_TRUE(kids[2].empty());
  EXPECT_EQ(roots(p), (std::vector<int>{0, 4}));
}

TEST(Profile, InclusiveSumsSubtreesPerLocation) {
  const Profile p = sample_profile();
  const auto in = inclusive(p, 0);
  // location 0: main = 1+2+4+8, foo = 2+4, bar = 4, baz = 8; location 1 x10
  EXPECT_DOUBLE_EQ(in[0 * 2 + 0], 15);
  EXPECT_DOUBLE_EQ(in[1 * 2 + 0], 6);
  EXPECT_DOUBLE_EQ(in[2 * 2 + 0], 4);
  EXPECT_DOUBLE_EQ(in[3 * 2 + 0], 8);
  EXPECT_DOUBLE_EQ(in[0 * 2 + 1], 150);
  EXPECT_DOUBLE_EQ(in[1 * 2 + 1], 60);
  const auto vis = inclusive(p, 1);
  EXPECT_DOUBLE_EQ(vis[0 * 2 + 0], 1111);
  EXPECT_DOUBLE_EQ(vis[0 * 2 + 1], 1115);
}

TEST(Profile, InclusiveOfMinAndMaxMetricsUsesMinAndMax) {
  Profile p = sample_profile();
  p.metrics.push_back(metric("min_time", "sec", DType::MinDouble, CubeType::Exclusive));
  p.metrics.push_back(metric("max_time", "sec", DType::MaxDouble, CubeType::Exclusive));
  p.excl.push_back({5, 5, 3, 3, 7, 7, 4, 4});
  p.excl.push_back({5, 5, 3, 3, 7, 7, 4, 4});
  EXPECT_DOUBLE_EQ(inclusive(p, 2)[0], 3);  // min over main's subtree
  EXPECT_DOUBLE_EQ(inclusive(p, 3)[0], 7);
  EXPECT_DOUBLE_EQ(inclusive(p, 2)[1 * 2], 3);  // foo{bar}: min(3, 7)
}

TEST(Profile, ValidateNamesTheProblem) {
  EXPECT_NO_THROW(validate(sample_profile()));
  auto expect_invalid = [](Profile p, const std::string &needle) {
    try {
      validate(p);
      FAIL() << "expected a failure mentioning " << needle;
    } catch (const std::runtime_error &e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  Profile p = sample_profile();
  p.cnodes[1].parent = 2;
  expect_invalid(p, "call path 1 has parent 2");
  p = sample_profile();
  p.cnodes[3].region = 9;
  expect_invalid(p, "call path 3 names region 9");
  p = sample_profile();
  p.excl[1].pop_back();
  expect_invalid(p, "metric 'visits' has 7 values, expected 4 call paths x 2 locations");
  p = sample_profile();
  p.metrics[1].uniq_name = "time";
  expect_invalid(p, "uniq_name 'time' used twice");
  p = sample_profile();
  p.metrics[0].parent = 1;
  p.metrics[1].parent = 0;
  expect_invalid(p, "cycle");
}

TEST(RowOrder, ExclusiveIsDepthFirstPreorder) {
  Profile p = sample_profile();
  EXPECT_EQ(exclusive_row_order(p), (std::vector<int>{0, 1, 2, 3}));
  // main=0 foo=1 baz=2 bar=3 (bar under foo): pre-order main foo bar baz.
  p.cnodes = {{0, -1}, {1, 0}, {3, 0}, {2, 1}};
  EXPECT_EQ(exclusive_row_order(p), (std::vector<int>{0, 1, 3, 2}));
}

TEST(RowOrder, InclusiveIsBreadthWisePerSubtree) {
  Profile p = sample_profile();
  EXPECT_EQ(inclusive_row_order(p), (std::vector<int>{0, 1, 3, 2}));  // main foo baz bar
  // a{b{d{f}, e}, c{g}}: a, b, c, then b's subtree (d, e, then d's: f), then c's (g)
  p.regions.resize(1);
  p.cnodes = {{0, -1}, {0, 0}, {0, 0}, {0, 1}, {0, 1}, {0, 3}, {0, 2}, {0, -1}, {0, 7}};
  //           a=0      b=1     c=2     d=3     e=4     f=5     g=6     r2=7     x=8
  EXPECT_EQ(inclusive_row_order(p), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  p.cnodes = {{0, -1}, {0, 0}, {0, 1}, {0, 0}, {0, 2}, {0, -1}, {0, 5}};
  //           a=0      b=1     d=2     c=3     f=4     r2=5     x=6
  EXPECT_EQ(inclusive_row_order(p), (std::vector<int>{0, 1, 3, 2, 4, 5, 6}));
}

TEST(RowOrder, DeepTreesDoNotRecurse) {
  Profile p = sample_profile();
  p.cnodes.clear();
  for (int i = 0; i < 200000; ++i) p.cnodes.push_back({0, i - 1});
  const auto e = exclusive_row_order(p), in = inclusive_row_order(p);
  ASSERT_EQ(e.size(), 200000u);
  ASSERT_EQ(in.size(), 200000u);
  EXPECT_EQ(e.back(), 199999);
  EXPECT_EQ(in.back(), 199999);
}

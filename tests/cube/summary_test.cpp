// The text views: pprof-style flat profile, hottest paths, call tree.
#include <gtest/gtest.h>

#include <sstream>

#include "summary.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

std::vector<std::string> lines_of(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The data line of the flat profile whose Name column is `name`.
std::string row_for(const std::string &text, const std::string &name) {
  for (const auto &l : lines_of(text))
    if (l.size() > name.size() && l.compare(l.size() - name.size(), name.size(), name) == 0 &&
        l[l.size() - name.size() - 1] == ' ')
      return l;
  return "";
}

std::vector<std::string> fields(const std::string &line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

}  // namespace

TEST(Summary, FlatProfileHasPprofColumnsAndValues) {
  const std::string t = flat_profile_text(sample_profile());
  const auto ls = lines_of(t);
  ASSERT_GE(ls.size(), 7u) << t;
  EXPECT_NE(t.find("%Time  Exclusive msec  Inclusive total msec  #Call  #Subrs  Inclusive usec/call  Name"),
            std::string::npos)
      << t;
  // Sorted by exclusive time: baz 88 s, bar 44, foo 22, main 11 (both locations).
  std::vector<std::string> order;
  for (const auto &l : ls) {
    const auto f = fields(l);
    if (f.size() == 7 && (f[6] == "main" || f[6] == "foo" || f[6] == "bar" || f[6] == "baz")) order.push_back(f[6]);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"baz", "bar", "foo", "main"})) << t;
  // main: %Time 100, excl 11 s, incl 165 s, 1+2 calls, subrs = foo 21 + baz 2001
  EXPECT_EQ(fields(row_for(t, "main")),
            (std::vector<std::string>{"100.0", "11000.000", "165000.000", "3", "2022", "55000000.000", "main"}))
      << t;
  // foo: incl 66 s of 165 = 40 %, 21 calls, 201 subroutine calls (bar)
  EXPECT_EQ(fields(row_for(t, "foo")),
            (std::vector<std::string>{"40.0", "22000.000", "66000.000", "21", "201", "3142857.143", "foo"}))
      << t;
}

TEST(Summary, HottestPathsAreFullCallPaths) {
  const std::string t = flat_profile_text(sample_profile());
  const auto hot = t.find("HOTTEST CALL PATHS");
  ASSERT_NE(hot, std::string::npos) << t;
  const std::string part = t.substr(hot);
  const auto baz = part.find("main \u2192 baz");
  const auto bar = part.find("main \u2192 foo \u2192 bar");
  ASSERT_NE(baz, std::string::npos) << part;
  ASSERT_NE(bar, std::string::npos) << part;
  EXPECT_LT(baz, bar);  // 88 s before 44 s
  EXPECT_NE(part.find("88000.000"), std::string::npos);
}

TEST(Summary, RecursionCountsInclusiveTimeOnce) {
  Profile p = sample_profile();
  // main -> foo -> foo(recursive) instead of bar
  p.cnodes[2].region = 1;
  const std::string t = flat_profile_text(p);
  const auto f = fields(row_for(t, "foo"));
  ASSERT_EQ(f.size(), 7u) << t;
  EXPECT_EQ(f[1], "66000.000");  // exclusive: 22 + 44 s
  EXPECT_EQ(f[2], "66000.000");  // inclusive: outer foo only, not 66 + 44
  EXPECT_EQ(f[3], "222");        // calls: 21 + 201
}

TEST(Summary, ExtraMetricsBecomeColumns) {
  Profile p = sample_profile();
  p.metrics.push_back(metric("bytes_sent", "bytes", DType::UInt64, CubeType::Exclusive));
  p.excl.push_back({0, 0, 0, 0, 512, 1024, 0, 0});  // bar sends
  const std::string t = flat_profile_text(p);
  EXPECT_NE(t.find("bytes_sent excl  bytes_sent incl  Name"), std::string::npos) << t;
  const auto bar = fields(row_for(t, "bar"));
  ASSERT_EQ(bar.size(), 9u) << t;
  EXPECT_EQ(bar[6], "1536");
  EXPECT_EQ(bar[7], "1536");
  const auto main = fields(row_for(t, "main"));
  EXPECT_EQ(main[6], "0");
  EXPECT_EQ(main[7], "1536");
  const std::string tree = call_tree_text(p);
  EXPECT_NE(tree.find("bytes_sent incl"), std::string::npos) << tree;
}

TEST(Summary, CallTreeIndentsAndRestrictsToALocation) {
  const Profile p = sample_profile();
  const auto all = lines_of(call_tree_text(p));
  std::vector<std::string> tail;
  for (const auto &l : all) {
    const auto f = fields(l);
    if (f.size() == 4 && (f[3] == "main" || f[3] == "foo" || f[3] == "bar" || f[3] == "baz")) tail.push_back(l);
  }
  ASSERT_EQ(tail.size(), 4u) << call_tree_text(p);
  EXPECT_EQ(fields(tail[0]), (std::vector<std::string>{"165000.000", "11000.000", "3", "main"}));
  EXPECT_NE(tail[1].find("  foo"), std::string::npos);
  EXPECT_NE(tail[2].find("    bar"), std::string::npos);
  EXPECT_EQ(fields(tail[3]), (std::vector<std::string>{"88000.000", "88000.000", "2001", "baz"}));

  const std::string one = call_tree_text(p, 1);
  EXPECT_NE(one.find("location 1 (rank 0, thread 1)"), std::string::npos) << one;
  EXPECT_NE(one.find("150000.000"), std::string::npos) << one;  // main incl on location 1
  EXPECT_EQ(one.find("165000.000"), std::string::npos) << one;
  const std::string flat1 = flat_profile_text(p, 0);
  EXPECT_EQ(fields(row_for(flat1, "main"))[2], "15000.000") << flat1;
}

TEST(Summary, SummaryHasHeaderFlatHotAndTree) {
  const std::string s = summary_text(sample_profile());
  EXPECT_NE(s.find("Program:    app"), std::string::npos) << s;
  EXPECT_NE(s.find("Locations:  2 (1 process, 2 threads)"), std::string::npos) << s;
  EXPECT_NE(s.find("Total time: 165.000000 s"), std::string::npos) << s;
  const auto flat = s.find("FLAT PROFILE"), hot = s.find("HOTTEST CALL PATHS"), tree = s.find("CALL TREE");
  ASSERT_NE(flat, std::string::npos);
  ASSERT_NE(hot, std::string::npos);
  ASSERT_NE(tree, std::string::npos);
  EXPECT_LT(flat, hot);
  EXPECT_LT(hot, tree);
}

TEST(Summary, ProfileWithoutTimeStillPrints) {
  Profile p = sample_profile();
  p.metrics.erase(p.metrics.begin());
  p.excl.erase(p.excl.begin());
  const std::string s = summary_text(p);
  EXPECT_NE(s.find("no 'time' metric"), std::string::npos) << s;
  EXPECT_EQ(fields(row_for(s, "baz"))[3], "2001") << s;
}

TEST(Summary, EmptyCallTreePrintsHeadersOnly) {
  Profile p = sample_profile();
  p.cnodes.clear();
  for (auto &v : p.excl) v.clear();
  const std::string s = summary_text(p);
  EXPECT_NE(s.find("Total time: 0.000000 s"), std::string::npos) << s;
  EXPECT_NE(s.find("Call paths: 0, regions: 4"), std::string::npos) << s;
  EXPECT_EQ(row_for(s, "main"), "") << s;
}

// main with `n` children kid0..kid{n-1}; kid i has i + 1 seconds of its own,
// main 1; one location. `role` and paradigm for the kids (OpenMP tables).
static Profile wide_profile(int n, const std::string &paradigm = "compiler", const std::string &role = "function") {
  Profile p;
  p.attrs = {{"program", "wide"}};
  p.hosts = {"node-a"};
  p.metrics = {metric("time", "sec", DType::Double, CubeType::Inclusive),
               metric("visits", "occ", DType::UInt64, CubeType::Exclusive)};
  p.regions.push_back(region("main", "w.c", 1, 2));
  p.cnodes.push_back({0, -1});
  for (int i = 0; i < n; ++i) {
    Region r = region("kid" + std::to_string(i), "w.c", 10 + i, 10 + i);
    r.paradigm = paradigm;
    r.role = role;
    p.regions.push_back(r);
    p.cnodes.push_back({i + 1, 0});
  }
  p.locations = {{"thread 0", 0, 0}};
  p.excl.assign(2, std::vector<double>(p.cnodes.size(), 0.0));
  p.excl[0][0] = 1;
  p.excl[1][0] = 1;
  for (int i = 0; i < n; ++i) {
    p.excl[0][size_t(i) + 1] = i + 1;
    p.excl[1][size_t(i) + 1] = 1;
  }
  return p;
}

TEST(Summary, CallTreeOfSummaryShowsTheTopPathsAndCountsTheRest) {
  const Profile p = wide_profile(500);
  const std::string s = summary_text(p);
  const std::string tree = s.substr(s.find("CALL TREE"));
  // 200 call paths: main and the 199 kids with the most time (kid499 ..
  // kid301); the other 301 are counted, under main and at the end.
  EXPECT_NE(tree.find("CALL TREE (summed over 1 location; the 200 call paths of 501 with the largest inclusive "
                      "time, and their callers)"),
            std::string::npos)
      << tree;
  EXPECT_NE(row_for(tree, "kid499"), "");
  EXPECT_NE(row_for(tree, "kid301"), "");
  EXPECT_EQ(row_for(tree, "kid300"), "");
  EXPECT_EQ(row_for(tree, "kid0"), "");
  EXPECT_NE(tree.find("    ... 301 more call paths below\n"), std::string::npos) << tree;
  EXPECT_NE(tree.find("... 301 more call paths, each with at most 301000.000 msec inclusive: all of them are in the "
                      ".cubex (CubeGUI, hcc-report --tree)\n"),
            std::string::npos)
      << tree;
  EXPECT_LT(lines_of(tree).size(), 210u);
  // hcc-report --tree asks for the whole tree.
  EXPECT_NE(row_for(call_tree_text(p), "kid0"), "");
  // A tree that fits is shown whole, without the notes.
  const std::string small = summary_text(wide_profile(199));
  EXPECT_EQ(small.find("more call path"), std::string::npos) << small;
  EXPECT_NE(row_for(small, "kid0"), "");
}

TEST(Summary, OpenMPTablesAreBounded) {
  const std::string omp = openmp_summary_text(wide_profile(150, "openmp", "barrier"));
  EXPECT_NE(omp.find("(the 100 construct call paths of 150 with the largest execT; all of them are in the .cubex)"),
            std::string::npos)
      << omp;
  std::size_t tables = 0;
  for (const auto &l : lines_of(omp)) tables += l.rfind("R0", 0) == 0 ? 1 : 0;
  EXPECT_EQ(tables, 100u);
  EXPECT_NE(omp.find("w.c (159-159) BARRIER"), std::string::npos);  // kid149: the most time
  EXPECT_EQ(omp.find("w.c (59-59) BARRIER"), std::string::npos);    // kid49: the 101st
}

TEST(Summary, HeaderNamesTheDeepestFoldedRecursion) {
  Profile p = sample_profile();
  EXPECT_EQ(summary_text(p).find("Recursion:"), std::string::npos);
  p.metrics.push_back(metric("recursion_depth", "frames", DType::MaxDouble, CubeType::Exclusive));
  p.excl.push_back(std::vector<double>(p.cnodes.size() * p.nloc(), 1.0));
  p.at(2, 2, 1) = 17;  // bar, on location 1
  const std::string s = summary_text(p);
  EXPECT_NE(s.find("Recursion:  folded (a recursive call is counted on the call path it recurses into); deepest: 17 "
                   "frames of bar\n"),
            std::string::npos)
      << s;
  // Its columns combine with max, not a sum.
  EXPECT_EQ(fields(row_for(flat_profile_text(p), "bar"))[6], "17") << s;
}

// The text views: pprof-style flat profile, hottest paths, call tree.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "marks.hpp"
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

// Every run is hybrid (text_views/marks.hpp): the times of bar (counted),
// baz (throttled) and exp (sampled) came from samples and carry `~` in
// every time column, with the legend under each table; main's and foo's
// came from the clock and carry none. Visits are never marked.
namespace {

// Whether every data row of the table under the line that starts with
// `title` (up to the next empty line or the legend) starts its last column
// where the header's `last` does: marked numbers widen their column, they
// do not shift the others.
testing::AssertionResult aligned(const std::string &text, const std::string &title, const std::string &last) {
  const auto ls = lines_of(text);
  for (std::size_t i = 0; i + 1 < ls.size(); ++i) {
    if (ls[i].rfind(title, 0) != 0) continue;
    const std::size_t col = ls[++i].find(last);
    if (col == std::string::npos || col < 3) return testing::AssertionFailure() << "no " << last << " under " << title;
    std::size_t rows = 0;
    for (std::size_t k = i + 2; k < ls.size() && !ls[k].empty() && ls[k] != kSampledLegend; ++k, ++rows)
      if (ls[k].size() <= col || ls[k][col - 1] != ' ' || ls[k][col - 2] != ' ' || ls[k][col - 3] == ' ')
        return testing::AssertionFailure() << "row " << k << " not aligned at column " << col << ":\n" << text;
    if (rows == 0) return testing::AssertionFailure() << "no rows under " << title << ":\n" << text;
    return testing::AssertionSuccess();
  }
  return testing::AssertionFailure() << "no " << title << ":\n" << text;
}

std::size_t count_of(const std::string &s, const std::string &what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST(SummaryMarks, FlatProfileMarksTimesFromSamplesAndKeepsColumnsAligned) {
  const std::string t = flat_profile_text(hybrid_profile());
  // bar: 220 of 341 s inclusive (its 44 s and exp's 176), 201 calls.
  EXPECT_EQ(fields(row_for(t, "bar")),
            (std::vector<std::string>{"~64.5", "~44000.000", "~220000.000", "201", "0", "~1094527.363", "bar"}))
      << t;
  EXPECT_EQ(fields(row_for(t, "baz")),
            (std::vector<std::string>{"~25.8", "~88000.000", "~88000.000", "2001", "0", "~43978.011", "baz"}))
      << t;
  EXPECT_EQ(fields(row_for(t, "exp")),
            (std::vector<std::string>{"~51.6", "~176000.000", "~176000.000", "0", "0", "~0.000", "exp"}))
      << t;
  // Timed: no mark, though foo's inclusive time holds bar's.
  EXPECT_EQ(fields(row_for(t, "foo")),
            (std::vector<std::string>{"71.0", "22000.000", "242000.000", "21", "201", "11523809.524", "foo"}))
      << t;
  EXPECT_EQ(fields(row_for(t, "main"))[1], "11000.000") << t;
  // One legend under the flat profile and one under the hottest paths.
  EXPECT_EQ(count_of(t, std::string("\n") + kSampledLegend + "\n"), 2u) << t;
  EXPECT_TRUE(aligned(t, "FLAT PROFILE", "Name"));
  EXPECT_TRUE(aligned(t, "HOTTEST CALL PATHS", "Call path"));
  // The hottest paths: exp's path first (176 s), marked; main → foo not.
  const std::string hot = t.substr(t.find("HOTTEST CALL PATHS"));
  EXPECT_EQ(fields(lines_of(hot)[3]),
            (std::vector<std::string>{"~176000.000", "~51.6", "0", "main", "\u2192", "foo", "\u2192", "bar", "\u2192",
                                      "exp"}))
      << hot;
  bool saw_foo = false;
  const std::string foo_path = "  main \u2192 foo";
  for (const auto &l : lines_of(hot))
    if (l.size() > foo_path.size() && l.compare(l.size() - foo_path.size(), foo_path.size(), foo_path) == 0) {
      saw_foo = true;
      EXPECT_EQ(fields(l), (std::vector<std::string>{"22000.000", "6.5", "21", "main", "\u2192", "foo"})) << hot;
    }
  EXPECT_TRUE(saw_foo) << hot;
}

TEST(SummaryMarks, CallTreeMarksInclusiveAndExclusiveOfUntimedPaths) {
  const std::string t = call_tree_text(hybrid_profile());
  std::map<std::string, std::vector<std::string>> row;
  for (const auto &l : lines_of(t)) {
    const auto f = fields(l);
    if (f.size() == 4) row[f[3]] = f;
  }
  EXPECT_EQ(row["main"], (std::vector<std::string>{"341000.000", "11000.000", "3", "main"})) << t;
  EXPECT_EQ(row["foo"], (std::vector<std::string>{"242000.000", "22000.000", "21", "foo"})) << t;
  EXPECT_EQ(row["bar"], (std::vector<std::string>{"~220000.000", "~44000.000", "201", "bar"})) << t;
  EXPECT_EQ(row["exp"], (std::vector<std::string>{"~176000.000", "~176000.000", "0", "exp"})) << t;
  EXPECT_EQ(row["baz"], (std::vector<std::string>{"~88000.000", "~88000.000", "2001", "baz"})) << t;
  EXPECT_NE(t.find("    baz\n" + std::string(kSampledLegend) + "\n"), std::string::npos) << t;  // under the table
  EXPECT_TRUE(aligned(t, "CALL TREE", "Call path"));
}

TEST(SummaryMarks, TimedProfileHasNoMarkAndNoLegend) {
  for (const std::string &t : {flat_profile_text(sample_profile()), call_tree_text(sample_profile()),
                               summary_text(sample_profile())}) {
    EXPECT_EQ(t.find('~'), std::string::npos) << t;
    EXPECT_EQ(t.find(kSampledLegend), std::string::npos) << t;
  }
}

TEST(SummaryMarks, SummarySaysWhereCountedAndThrottledTimeCameFrom) {
  Profile p = hybrid_profile();
  p.attrs.push_back({"hcc.throttled", "baz (after 1000 calls, 0.011 us/call)"});
  const std::string s = summary_text(p);
  EXPECT_NE(s.find("Counted:    bar (visits exact, no clock read; their time is the CPU time of their samples, "
                   "marked ~)\n"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("THROTTLED REGIONS (timed until the calls shown; every visit counted, its time is the CPU time "
                   "of its samples, marked ~)\n  baz (after 1000 calls, 0.011 us/call)\n"),
            std::string::npos)
      << s;
  // flat profile, hottest paths, call tree: a legend each.
  EXPECT_EQ(count_of(s, std::string("\n") + kSampledLegend + "\n"), 3u) << s;

  // A run without samples: a counted region's time stayed its caller's.
  p.attrs.erase(std::remove_if(p.attrs.begin(), p.attrs.end(), [](const auto &kv) { return kv.first == "hcc.sampling"; }),
                p.attrs.end());
  EXPECT_NE(summary_text(p).find("Counted:    bar (visits exact, no clock read; no samples in this run "
                                 "(HCC_SAMPLING=off): their time is their caller's)\n"),
            std::string::npos)
      << summary_text(p);
}

// A profile written before sampling was the default: its counted region's
// time is its caller's (exclusive 0), from no sample, so it is not marked.
TEST(SummaryMarks, CountedRegionOfAnOlderProfileIsNotMarked) {
  Profile p = sample_profile();
  p.regions[2].descr = kCountedRegionDescrBefore;
  for (std::size_t l = 0; l < p.nloc(); ++l) p.at(0, 2, l) = 0;
  const std::string s = summary_text(p);
  EXPECT_EQ(fields(row_for(s, "bar")),
            (std::vector<std::string>{"0.0", "0.000", "0.000", "201", "0", "0.000", "bar"}))
      << s;
  EXPECT_EQ(s.find('~'), std::string::npos) << s;
  EXPECT_NE(s.find("Counted:    bar (visits exact, no clock read; their time is their caller's (written before "
                   "sampling was the default))\n"),
            std::string::npos)
      << s;
}

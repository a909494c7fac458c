// hcc-report --gprof on profiles written here: a caller's `self` and
// `children` are the time under that caller (gprof itself can only split a
// callee's time by call counts), and recursive calls pair with the call path
// that made them, or show as the callee's own when that is not known.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "cubex.hpp"
#include "gprof_output.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

std::string run_report(const std::string &args) {
  std::string out;
  FILE *f = ::popen((std::string("'") + HCC_REPORT_EXE + "' " + args + " 2>&1").c_str(), "r");
  if (!f) return out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  ::pclose(f);
  return out;
}

Profile base(const std::vector<Region> &regions, const std::vector<CallNode> &cnodes) {
  Profile p;
  p.attrs = {{"program", "app"}};
  p.hosts = {"node"};
  p.metrics = {metric("time", "sec", DType::Double, CubeType::Inclusive),
               metric("visits", "occ", DType::UInt64, CubeType::Exclusive)};
  p.regions = regions;
  p.cnodes = cnodes;
  p.locations = {{"thread 0", 0, 0}};
  p.excl.assign(2, std::vector<double>(p.cnodes.size(), 0.0));
  return p;
}

}  // namespace

// main -> a -> c once (10 s) and main -> b -> c nine times (1 s): gprof
// would give a a tenth of c's 11 s; the tree gives a all 10.
TEST(GprofReport, CallerTimeIsTheTimeUnderThatCallerNotSplitByCounts) {
  Profile p = base({region("main", "a.c", 1, 2), region("a", "a.c", 3, 4), region("b", "a.c", 5, 6),
                    region("c", "a.c", 7, 8)},
                   {{0, -1}, {1, 0}, {3, 1}, {2, 0}, {3, 3}});
  const double time[] = {0.5, 0.25, 10, 0.25, 1}, visits[] = {1, 1, 1, 1, 9};
  for (size_t c = 0; c < 5; ++c) {
    p.at(0, c, 0) = time[c];
    p.at(1, c, 0) = visits[c];
  }
  TempDir d;
  write_cubex(p, d.file("p.cubex"));
  const std::string out = run_report("--gprof " + d.file("p.cubex"));
  const hcc::e2e::GprofOutput g = hcc::e2e::parse_gprof(out);
  ASSERT_TRUE(g.graph.count("c")) << out;
  EXPECT_EQ(g.graph.at("c").callers.at("a"), "1/10") << out;
  EXPECT_EQ(g.graph.at("c").callers.at("b"), "9/10") << out;
  // c's callers, in gprof's columns: a with its 10 s, b with its 1 s.
  EXPECT_NE(out.find("\n               10.00    0.00       1/10          a [3]\n[2]     91.7   11.00    0.00      10         c [2]\n"),
            std::string::npos) << out;
  EXPECT_NE(out.find("\n                1.00    0.00       9/10          b [4]\n               10.00"), std::string::npos) << out;
  // a's block: its child c with all 10 s below a.
  EXPECT_NE(out.find("[3]     85.4    0.25   10.00       1         a [3]\n               10.00    0.00       1/10          c [2]\n"),
            std::string::npos) << out;
  EXPECT_EQ(g.self_seconds.at("c"), 11.0) << out;
}

// main -> f (recursive 4 calls into f, made by f itself) -> g (3 calls into
// f, made by g): recursive_calls pairs each with its maker. A profile
// without the metrics (another writer's) has no "+N" at all.
TEST(GprofReport, RecursiveCallsPairWithTheCallPathThatMadeThem) {
  Profile p = base({region("main", "a.c", 1, 2), region("f", "a.c", 3, 4), region("g", "a.c", 5, 6)},
                   {{0, -1}, {1, 0}, {2, 1}});
  p.metrics.push_back(metric("recursive_visits", "occ", DType::UInt64, CubeType::Exclusive));
  p.metrics.push_back(metric("recursive_calls", "occ", DType::UInt64, CubeType::Exclusive));
  p.excl.assign(4, std::vector<double>(3, 0.0));
  const double visits[] = {1, 9, 5}, rec_visits[] = {0, 7, 0}, rec_calls[] = {0, 4, 3};
  for (size_t c = 0; c < 3; ++c) {
    p.at(0, c, 0) = 1;
    p.at(1, c, 0) = visits[c];
    p.at(2, c, 0) = rec_visits[c];
    p.at(3, c, 0) = rec_calls[c];
  }
  TempDir d;
  write_cubex(p, d.file("p.cubex"));
  std::string out = run_report("--gprof " + d.file("p.cubex"));
  hcc::e2e::GprofOutput g = hcc::e2e::parse_gprof(out);
  ASSERT_TRUE(g.graph.count("f") && g.graph.count("g")) << out;
  EXPECT_EQ(g.graph.at("f").called, "2+7") << out;
  EXPECT_EQ(g.graph.at("f").callers.at("main"), "2/2") << out;
  EXPECT_EQ(g.graph.at("f").callers.at("f"), "4") << out;
  EXPECT_EQ(g.graph.at("f").callers.at("g"), "3") << out;
  EXPECT_EQ(g.graph.at("g").callees.at("f"), "3") << out;
  EXPECT_EQ(g.graph.at("g").callers.at("f"), "5/5") << out;

  p.metrics.resize(2);
  p.excl.resize(2);
  write_cubex(p, d.file("q.cubex"));
  out = run_report("--gprof " + d.file("q.cubex"));
  g = hcc::e2e::parse_gprof(out);
  EXPECT_EQ(g.graph.at("f").called, "9") << out;
  EXPECT_EQ(g.graph.at("f").callers.count("f"), 0u) << out;
}

// Marked times (`~`, text_views/marks.hpp) read as numbers by a parser that
// knows the mark: every function keeps its self seconds and calls.
TEST(GprofReport, MarkedTimesStillParse) {
  TempDir d;
  write_cubex(hybrid_profile(), d.file("p.cubex"));
  const std::string out = run_report("--gprof " + d.file("p.cubex"));
  ASSERT_NE(out.find("~44.00"), std::string::npos) << out;
  const hcc::e2e::GprofOutput g = hcc::e2e::parse_gprof(out);
  EXPECT_EQ(g.self_seconds, (std::map<std::string, double>{{"main", 11}, {"foo", 22}, {"bar", 44}, {"baz", 88}, {"exp", 176}}))
      << out;
  ASSERT_TRUE(g.graph.count("bar")) << out;
  EXPECT_EQ(g.graph.at("bar").called, "201") << out;
  EXPECT_EQ(g.graph.at("bar").callers.at("foo"), "201/201") << out;
  EXPECT_EQ(g.graph.at("foo").callees.at("bar"), "201/201") << out;
}

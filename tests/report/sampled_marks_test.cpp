// Every hcc-report view marks a time that came from samples (issue 41,
// text_views/marks.hpp) and leaves a timed one alone: --json, --diff,
// --folded, --gprof, --callgraph and the evidence of --plan and
// --suggest-filter, on hybrid_profile() (test_util.hpp: bar counted, baz
// throttled, exp sampled; main and foo timed). The text views' marks are
// checked in tests/cube/summary_test.cpp, the HTML page's in
// html_page_test.cpp and html_e2e_test.cpp.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cubex.hpp"
#include "marks.hpp"
#include "report_run.hpp"
#include "test_util.hpp"

using namespace hcc_test;
using nlohmann::json;

namespace {

ReportResult report(const std::string &args) {
  TempDir errdir;
  const std::string errfile = errdir.file("stderr");
  return run_capturing(quote(HCC_REPORT_EXE) + " " + args + " 2>" + quote(errfile), errfile);
}

// The profile written to `d`, its path quoted for the shell.
std::string written(const Profile &p, const TempDir &d, const std::string &name = "p.cubex") {
  write_cubex(p, d.file(name));
  return quote(d.file(name));
}

std::vector<std::string> words(const std::string &line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The line of `text` that ends with `tail` ("" when none).
std::string line_ending(const std::string &text, const std::string &tail) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l.size() >= tail.size() && l.compare(l.size() - tail.size(), tail.size(), tail) == 0) return l;
  return "";
}

}  // namespace

TEST(SampledMarks, JsonSaysWhereEachRegionsTimeCameFrom) {
  TempDir d;
  const ReportResult r = report("--json " + written(hybrid_profile(), d));
  ASSERT_EQ(r.status, 0) << r.err;
  const json regions = json::parse(r.out)["regions"];
  ASSERT_EQ(regions.size(), 5u);
  for (int timed : {0, 1}) {  // main, foo
    EXPECT_EQ(regions[timed]["time_from"], "clock") << regions[timed];
    EXPECT_FALSE(regions[timed].contains("counted") || regions[timed].contains("throttled")) << regions[timed];
  }
  EXPECT_EQ(regions[2]["time_from"], "samples");
  EXPECT_EQ(regions[2]["counted"], true);
  EXPECT_FALSE(regions[2].contains("throttled")) << regions[2];
  EXPECT_EQ(regions[3]["time_from"], "samples");
  EXPECT_EQ(regions[3]["throttled"], true);
  EXPECT_FALSE(regions[3].contains("counted")) << regions[3];
  EXPECT_EQ(regions[4]["time_from"], "samples");
  EXPECT_EQ(regions[4]["kind"], "sampled");
}

// A: every region timed; B: the hybrid run. Each side is marked by its own
// run, the change when either is.
TEST(SampledMarks, DiffMarksEachRunsTimesFromSamples) {
  TempDir d;
  const std::string a = written(sample_profile(), d, "a.cubex"), b = written(hybrid_profile(), d, "b.cubex");
  const ReportResult text = report("--diff " + a + " " + b);
  ASSERT_EQ(text.status, 0) << text.err;
  const std::vector<std::string> bar = words(line_ending(text.out, "main \u2192 foo \u2192 bar"));
  ASSERT_GE(bar.size(), 6u) << text.out;
  EXPECT_EQ(std::vector<std::string>(bar.begin(), bar.begin() + 6),
            (std::vector<std::string>{"44000.000", "~44000.000", "~+0.000", "201", "201", "+0"}))
      << text.out;
  const std::vector<std::string> exp = words(line_ending(text.out, "bar \u2192 exp  (only in B)"));
  ASSERT_GE(exp.size(), 3u) << text.out;
  EXPECT_EQ(std::vector<std::string>(exp.begin(), exp.begin() + 3),
            (std::vector<std::string>{"-", "~176000.000", "~+176000.000"}))
      << text.out;
  const std::vector<std::string> foo = words(line_ending(text.out, "  main \u2192 foo"));
  ASSERT_GE(foo.size(), 3u) << text.out;
  EXPECT_EQ(std::vector<std::string>(foo.begin(), foo.begin() + 3),
            (std::vector<std::string>{"22000.000", "22000.000", "+0.000"}))
      << text.out;
  EXPECT_NE(text.out.find(std::string("\n") + hcc::profile::kSampledLegend + "\n"), std::string::npos) << text.out;
  // The same run on both sides, timed: nothing marked.
  const ReportResult same = report("--diff " + a + " " + a);
  EXPECT_EQ(same.out.find('~'), std::string::npos) << same.out;

  const ReportResult j = report("--diff " + a + " " + b + " --json");
  ASSERT_EQ(j.status, 0) << j.err;
  int seen = 0;
  const json diff = json::parse(j.out);
  for (const json &cp : diff["callpaths"]) {
    const std::string leaf = cp["path"].back();
    if (leaf == "bar") EXPECT_EQ(cp["time_from"], json::parse(R"({"a":"clock","b":"samples"})")) << cp;
    if (leaf == "exp") EXPECT_EQ(cp["time_from"], json::parse(R"({"b":"samples"})")) << cp;  // only in B
    if (leaf == "foo") EXPECT_EQ(cp["time_from"], json::parse(R"({"a":"clock","b":"clock"})")) << cp;
    seen += leaf == "bar" || leaf == "exp" || leaf == "foo";
  }
  EXPECT_EQ(seen, 3) << j.out;
}

TEST(SampledMarks, FoldedFramesWhoseTimeCameFromSamplesEndInS) {
  TempDir d;
  const std::string p = written(hybrid_profile(), d);
  EXPECT_EQ(report("--folded " + p).out,
            "main 11000000\n"
            "main;foo 22000000\n"
            "main;foo;bar_[s] 44000000\n"
            "main;foo;bar_[s];exp_[s] 176000000\n"
            "main;baz_[s] 88000000\n");
  // For pipelines that join names with another profiler's: the names alone.
  EXPECT_EQ(report("--folded --unmarked " + p).out,
            "main 11000000\nmain;foo 22000000\nmain;foo;bar 44000000\nmain;foo;bar;exp 176000000\nmain;baz 88000000\n");
  // Visits are exact whatever timed them: not marked (exp has none).
  EXPECT_EQ(report("--folded --metric visits " + p).out, "main 3\nmain;foo 21\nmain;foo;bar 201\nmain;baz 2001\n");
}

TEST(SampledMarks, GprofMarksTheTimesOfUntimedFunctionsInTheirColumns) {
  TempDir d;
  const std::string p = written(hybrid_profile(), d);
  const ReportResult r = report("--gprof " + p);
  ASSERT_EQ(r.status, 0) << r.err;
  // Flat profile, exp first (176 of 341 s): % time and self marked, the
  // columns where gprof has them.
  EXPECT_NE(r.out.find("\n~51.61    176.00  ~176.00                             exp\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  6.45    330.00    22.00       21  1047.62 11523.81  foo\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n~12.90    308.00   ~44.00      201  ~218.91 ~1094.53  bar\n"), std::string::npos) << r.out;
  // Call graph: bar's entry and the arc from foo to it carry its mark; the
  // children column (exp's time, marked on exp's entry) does not.
  EXPECT_NE(r.out.find("\n[3]    ~64.5  ~44.00  176.00     201         bar [3]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n              ~44.00  176.00     201/201         bar [3]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n[2]     71.0   22.00  220.00      21         foo [2]\n"), std::string::npos) << r.out;
  EXPECT_EQ(words(line_ending(r.out, hcc::profile::kSampledLegend)).size(), words(hcc::profile::kSampledLegend).size());
  // Unmarked: the numbers gprof2dot parses (\d+\.\d+), and no legend.
  const ReportResult plain = report("--gprof --unmarked " + p);
  EXPECT_EQ(plain.out.find('~'), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("\n[3]     64.5   44.00  176.00     201         bar [3]\n"), std::string::npos) << plain.out;
  EXPECT_EQ(report("--gprof " + written(sample_profile(), d, "timed.cubex")).out.find('~'), std::string::npos);
}

TEST(SampledMarks, CallGraphLabelsMarkUntimedFunctions) {
  TempDir d;
  const ReportResult r = report("--callgraph=dot " + written(hybrid_profile(), d));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("label=\"bar\\nself ~44 s (12.9%)\\ntotal ~220 s (64.5%)\\n201 calls\""), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("label=\"foo\\nself 22 s (6.5%)\\ntotal 242 s (71.0%)\\n21 calls\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(std::string("\\n") + hcc::profile::kSampledLegend + "\"];"), std::string::npos) << r.out;
}

TEST(SampledMarks, UnmarkedModifiesFoldedAndGprofOnly) {
  const ReportResult r = report("--tree --unmarked x.cubex");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "hcc-report: --unmarked applies to --folded or --gprof, not to --tree\n");
}

// The plan's and the filter's evidence say which verdicts rest on a time
// from samples: here dot(int), counted in the run; work(int) was timed.
TEST(SampledMarks, PlanEvidenceSaysWhenATimeCameFromSamples) {
  Profile p;
  p.attrs = {{"program", "app"}, {"hcc.pair_cost_ns", "20.00"}, {"hcc.pair_inside_ns", "10.00"}};
  p.hosts = {"node"};
  p.metrics = {metric("time", "sec", DType::Double, CubeType::Inclusive),
               metric("visits", "occ", DType::UInt64, CubeType::Exclusive)};
  p.regions = {region("main", "a.cpp", 1, 2), region("work(int)", "a.cpp", 3, 4), region("dot(int)", "a.cpp", 5, 6)};
  p.regions[2].descr = kCountedRegionDescr;
  p.cnodes = {{0, -1}, {1, 0}, {2, 1}};
  p.locations = {{"thread 0", 0, 0}};
  p.excl.assign(2, std::vector<double>(3, 0.0));
  // work: 1000 visits of 140 ns (its work); dot: 10 000 of 4 ns (an
  // accessor: its time, from samples, holds no part of a pair, so 4 ns is
  // its own work, under half the pair).
  const double visits[] = {1, 1000, 10000}, ns[] = {1e6, 140, 4};
  for (size_t c = 0; c < 3; ++c) p.at(0, c, 0) = visits[c] * ns[c] * 1e-9, p.at(1, c, 0) = visits[c];
  TempDir d;
  const std::string file = written(p, d);
  const ReportResult plan = report("--plan " + file + " --rule 'calls>100,budget<100'");
  ASSERT_EQ(plan.status, 0) << plan.err;
  EXPECT_NE(plan.out.find("# left out dot(int): 4 ns per call (time from samples) over 10000 calls in "),
            std::string::npos)
      << plan.out;
  const std::string work = line_ending(plan.out, "it is the work");
  EXPECT_EQ(work.rfind("# kept work(int): its own work, ", 0), 0u) << plan.out;
  EXPECT_EQ(work.find("from samples"), std::string::npos) << plan.out;
  const ReportResult filter = report("--suggest-filter " + file + " --rule 'calls>100,budget<100'");
  ASSERT_EQ(filter.status, 0) << filter.err;
  EXPECT_NE(line_ending(filter.out, " dot(int) (time from samples)"), "") << filter.out;
  EXPECT_NE(line_ending(filter.out, " work(int)"), "") << filter.out;
}

// Control flow end to end: programs built through `hcc --hcc-functions=all`
// (gcc and clang; OpenMP with libgomp and libomp), run, and read back with
// `hcc-report --cfg`, `--cfg=dot` and `--json`. The expected lists are the
// examples of Fürlinger & Moore's control-flow paper, with the parent shown
// by its region name.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

struct Built {
  std::string dir;  // holds prof/ (the profile)
  std::string out;  // the instrumented program's output
};

// Builds `program` plain and through hcc, runs both; the output must match.
Built build_and_run(const Toolchain &tc, const std::string &program, const std::string &env = "",
                  const std::string &flags = "", const std::string &run_env = "",
                  const std::string &hcc_flags = "") {
  Built r;
  r.dir = scratch_dir("cfg-" + tc.name + "-" + program + (env.empty() ? "" : "-env"));
  const std::string src = shell_quote(programs_dir() + "/" + program + ".c");
  RunResult c1 = run(tc.cc + " -O2 " + flags + " " + src + " -o " + r.dir + "/plain");
  EXPECT_EQ(c1.status, 0) << c1.err;
  RunResult c2 = run("cd " + r.dir + " && " + hcc_bin() + " --hcc-functions=all " + hcc_flags + " --hcc-compiler=" + tc.cc +
                     " -O2 " + flags + " " + src + " -o app");
  EXPECT_EQ(c2.status, 0) << c2.err;
  RunResult plain = run(run_env + " " + r.dir + "/plain");
  RunResult app = run("cd " + r.dir + " && " + run_env + " " + env + " HCC_OUTPUT_DIR=" + r.dir + "/prof ./app");
  EXPECT_EQ(app.status, 0) << app.err;
  EXPECT_EQ(app.out, plain.out) << "the instrumented program prints what the plain one prints";
  r.out = app.out;
  return r;
}

std::string report(const std::string &args) {
  RunResult r = run(report_bin() + " " + args);
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

// The lines of `hcc-report --cfg` without the heading.
std::vector<std::string> cfg_lines(const std::string &dir) {
  std::istringstream in(report(dir + "/prof --cfg"));
  std::vector<std::string> out;
  std::string line;
  std::getline(in, line);  // heading
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

class ControlFlowE2E : public ::testing::TestWithParam<Toolchain> {};

TEST_P(ControlFlowE2E, VersionAAlternatingCallsGiveFooAfterBar) {
  Built r = build_and_run(GetParam(), "version_a");
  EXPECT_EQ(cfg_lines(r.dir), (std::vector<std::string>{"main", "  foo (main:1,bar:19)", "  bar (foo:20)"}));
}

TEST_P(ControlFlowE2E, VersionBTwoLoopsGiveEachCallAfterItself) {
  Built r = build_and_run(GetParam(), "version_b");
  EXPECT_EQ(cfg_lines(r.dir),
            (std::vector<std::string>{"main", "  foo (main:1,foo:19)", "  bar (foo:1,bar:19)"}));
}

TEST_P(ControlFlowE2E, Figure4LoopOverABCWithCalleesBelowAAndC) {
  Built r = build_and_run(GetParam(), "fig4");
  EXPECT_EQ(cfg_lines(r.dir), (std::vector<std::string>{"main", "  A (main:1,C:4)", "    X (A:5)", "    Y (X:5)",
                                                        "  B (A:5)", "  C (B:5)", "    Z (C:5)"}));
}

TEST_P(ControlFlowE2E, JsonListsPredecessorsPerLocationAndNothingWithCfgOff) {
  Built r = build_and_run(GetParam(), "version_a");
  Profile p = Profile::load(r.dir + "/prof");
  const auto &cps = p.json()["callpaths"];
  int main_c = -1, foo = -1, bar = -1;
  for (size_t c = 0; c < cps.size(); ++c) {
    const std::string path = p.path(int(c));
    if (path == "main") main_c = int(c);
    if (path == "main/foo") foo = int(c);
    if (path == "main/bar") bar = int(c);
  }
  ASSERT_GE(foo, 0);
  ASSERT_GE(bar, 0);
  EXPECT_EQ(cps[foo]["predecessors"],
            nlohmann::json::parse("[{\"callpath\": " + std::to_string(main_c) + ", \"count\": [1]}, {\"callpath\": " +
                                  std::to_string(bar) + ", \"count\": [19]}]"));
  EXPECT_EQ(cps[main_c]["predecessors"], nlohmann::json::array());

  Built off = build_and_run(GetParam(), "version_a", "HCC_CFG=off");
  Profile q = Profile::load(off.dir + "/prof");
  for (const auto &c : q.json()["callpaths"]) EXPECT_EQ(c["predecessors"], nlohmann::json::array());
  // The path may also follow --cfg; a mode it does not know is an error.
  EXPECT_EQ(report("--cfg " + r.dir + "/prof"), report(r.dir + "/prof --cfg"));
  RunResult bogus = run(report_bin() + " " + r.dir + "/prof --cfg=bogus");
  EXPECT_EQ(bogus.status, 2);
  EXPECT_NE(bogus.err.find("--cfg=bogus: expected text, dot or svg"), std::string::npos) << bogus.err;
  EXPECT_EQ(report(off.dir + "/prof --cfg"),
            "no control-flow data in this profile (written with HCC_CFG=off, or not by hcc)\n");
}

TEST_P(ControlFlowE2E, DotShowsSolidRanAfterAndDottedCalledFromEdges) {
  Built r = build_and_run(GetParam(), "fig4");
  Profile p = Profile::load(r.dir + "/prof");
  std::map<std::string, int> id;
  for (size_t c = 0; c < p.json()["callpaths"].size(); ++c) id[p.path(int(c))] = int(c);
  auto node = [&](const std::string &path) { return "c" + std::to_string(id.at(path)); };
  const std::string dot = report(r.dir + "/prof --cfg=dot");
  EXPECT_NE(dot.find("digraph"), std::string::npos);
  // C ran after B on thread 0, 5 times; A was called from main once, and ran after C 4 times.
  EXPECT_NE(dot.find(node("main/B") + " -> " + node("main/C") + " [label=\"0|5\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find(node("main") + " -> " + node("main/A") + " [label=\"0|1\", style=dotted];"), std::string::npos)
      << dot;
  EXPECT_NE(dot.find(node("main/C") + " -> " + node("main/A") + " [label=\"0|4\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("FUNCTION\\nA +\\n"), std::string::npos) << "A has children: '+'";
  EXPECT_NE(dot.find("FUNCTION\\nB\\n"), std::string::npos) << "B has none";

  // One layer: A and its children only.
  const std::string layer = report(r.dir + "/prof --cfg=dot --cfg-root=A");
  EXPECT_NE(layer.find(node("main/A/X") + " -> " + node("main/A/Y") + " [label=\"0|5\"];"), std::string::npos)
      << layer;
  EXPECT_EQ(layer.find(node("main/B") + " ["), std::string::npos) << layer;
  RunResult missing = run(report_bin() + " " + r.dir + "/prof --cfg=dot --cfg-root=no_such_region");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("no call path of region 'no_such_region'"), std::string::npos) << missing.err;

  if (std::string(HCC_CFG_DOT).empty()) GTEST_SKIP() << "Graphviz dot is not installed";
  std::ofstream(r.dir + "/cfg.dot") << dot;
  RunResult svg = run(std::string(HCC_CFG_DOT) + " -Tsvg " + r.dir + "/cfg.dot");
  EXPECT_EQ(svg.status, 0) << svg.err;
  EXPECT_NE(svg.out.find("<svg"), std::string::npos);
  EXPECT_NE(report(r.dir + "/prof --cfg=svg").find("<svg"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Compilers, ControlFlowE2E, ::testing::ValuesIn(toolchains()),
                         [](const auto &info) { return info.param.name; });

// --- OpenMP ---

std::vector<Toolchain> omp_toolchains() {
  std::vector<Toolchain> t = {{"gcc", "gcc", "g++"}};
  if (std::string(HCC_CFG_OMP_CLANG).size()) t.push_back({"clang", HCC_CFG_OMP_CLANG, ""});
  return t;
}

class ControlFlowOpenMP : public ::testing::TestWithParam<Toolchain> {};

// The call path of the OpenMP construct of `role` at source line `line`.
int construct(const Profile &p, const std::string &role, int line) {
  const auto &j = p.json();
  for (size_t c = 0; c < j["callpaths"].size(); ++c) {
    const auto &r = j["regions"][j["callpaths"][c]["region"].get<int>()];
    if (r["kind"] == role && r["line"] == line) return int(c);
  }
  return -1;
}

// Predecessor `pred`'s counts per location at call path c; empty when absent.
std::vector<long long> counts(const Profile &p, int c, int pred) {
  for (const auto &e : p.json()["callpaths"][c]["predecessors"])
    if (e["callpath"] == pred) return e["count"].get<std::vector<long long>>();
  return {};
}

TEST_P(ControlFlowOpenMP, MasterFollowsTheFirstLoopOnThreadZeroAndTheSecondLoopFollowsBoth) {
  Built r = build_and_run(GetParam(), "omp_master", "", "-fopenmp", "OMP_NUM_THREADS=4 OMP_DYNAMIC=false",
                        "--hcc-openmp=on");
  Profile p = Profile::load(r.dir + "/prof");
  ASSERT_EQ(p.locations(), 4u);
  const int parallel = construct(p, "parallel", 13), loop1 = construct(p, "loop", 15),
            master = construct(p, "master", 17), loop2 = construct(p, "loop", 19);
  ASSERT_GE(parallel, 0);
  ASSERT_GE(loop1, 0);
  ASSERT_GE(master, 0);
  ASSERT_GE(loop2, 0);
  // Location k is OpenMP thread k (runtime/core/README.md, "Location order"): 0 is the master.
  EXPECT_EQ(p.json()["callpaths"][master]["predecessors"].size(), 1u);
  EXPECT_EQ(counts(p, master, loop1), (std::vector<long long>{3, 0, 0, 0}));
  EXPECT_EQ(p.json()["callpaths"][loop2]["predecessors"].size(), 2u);
  EXPECT_EQ(counts(p, loop2, master), (std::vector<long long>{3, 0, 0, 0}));
  EXPECT_EQ(counts(p, loop2, loop1), (std::vector<long long>{0, 3, 3, 3}));
  // Every thread's first construct in the region follows the parallel region (its parent).
  EXPECT_EQ(counts(p, loop1, parallel), (std::vector<long long>{3, 3, 3, 3}));
  // Workers see their earlier parallel region as a sibling, like the master.
  EXPECT_EQ(counts(p, parallel, parallel), (std::vector<long long>{2, 2, 2, 2}));

  // The graph groups the threads that took an edge.
  const std::string dot = report(r.dir + "/prof --cfg=dot");
  const std::string l1 = "c" + std::to_string(loop1), l2 = "c" + std::to_string(loop2),
                    m = "c" + std::to_string(master);
  EXPECT_NE(dot.find(l1 + " -> " + l2 + " [label=\"1-3|9\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find(m + " -> " + l2 + " [label=\"0|3\"];"), std::string::npos) << dot;
  EXPECT_NE(dot.find("PARALLEL\\n"), std::string::npos);
  EXPECT_NE(dot.find("MASTER\\n"), std::string::npos);
  if (std::string(HCC_CFG_DOT).empty()) GTEST_SKIP() << "Graphviz dot is not installed";
  std::ofstream(r.dir + "/cfg.dot") << dot;
  RunResult svg = run(std::string(HCC_CFG_DOT) + " -Tsvg " + r.dir + "/cfg.dot -o " + r.dir + "/cfg.svg");
  EXPECT_EQ(svg.status, 0) << svg.err;
}

// Every entry counts exactly one predecessor: on every call path and
// location the counts add up to the visits (a root's first visit follows
// the thread's start, no call path: one less there).
void expect_counts_add_up_to_visits(const Profile &p) {
  const auto &cps = p.json()["callpaths"];
  for (size_t c = 0; c < cps.size(); ++c) {
    const auto &visits = cps[c]["values"]["visits"]["excl"];
    for (size_t l = 0; l < visits.size(); ++l) {
      long long sum = 0;
      for (const auto &e : cps[c]["predecessors"]) sum += e["count"][l].get<long long>();
      long long v = visits[l].get<long long>();
      if (cps[c]["parent"].get<int>() < 0 && v > 0) --v;
      EXPECT_EQ(sum, v) << p.path(int(c)) << " on location " << l;
    }
  }
}

TEST_P(ControlFlowOpenMP, NestedTeamsCountEveryEntryOnceAndInnerRegionsFollowTheOuter) {
  Built r = build_and_run(GetParam(), "omp_nested", "", "-fopenmp", "OMP_DYNAMIC=false", "--hcc-openmp=on");
  EXPECT_EQ(r.out, "22 2 22 2\n");
  Profile p = Profile::load(r.dir + "/prof");
  expect_counts_add_up_to_visits(p);
  const int outer = construct(p, "parallel", 11), inner = construct(p, "parallel", 14),
            loop = construct(p, "loop", 16), single = construct(p, "single", 18);
  ASSERT_GE(outer, 0);
  ASSERT_GE(inner, 0);
  // Every thread that ran the inner region entered it first from the outer one.
  const auto visits = p.json()["callpaths"][inner]["values"]["visits"]["excl"].get<std::vector<long long>>();
  const auto from_outer = counts(p, inner, outer);
  ASSERT_EQ(from_outer.size(), visits.size());
  for (size_t l = 0; l < visits.size(); ++l) EXPECT_EQ(from_outer[l] > 0, visits[l] > 0) << "location " << l;
  // Inside the inner team: the loop follows the inner region, the single the loop, on every thread.
  EXPECT_EQ(counts(p, loop, inner), p.json()["callpaths"][loop]["values"]["visits"]["excl"].get<std::vector<long long>>());
  EXPECT_EQ(counts(p, single, loop), p.json()["callpaths"][single]["values"]["visits"]["excl"].get<std::vector<long long>>());
}

TEST_P(ControlFlowOpenMP, CountsAddUpToVisitsInTheMasterLoopTeam) {
  Built r = build_and_run(GetParam(), "omp_master", "", "-fopenmp", "OMP_NUM_THREADS=4 OMP_DYNAMIC=false",
                          "--hcc-openmp=on");
  expect_counts_add_up_to_visits(Profile::load(r.dir + "/prof"));
}

INSTANTIATE_TEST_SUITE_P(OpenMP, ControlFlowOpenMP, ::testing::ValuesIn(omp_toolchains()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
}  // namespace hcc::e2e

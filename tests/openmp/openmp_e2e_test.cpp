// OpenMP end to end: programs built plain and through `hcc --hcc-openmp=on`
// with gcc (libgomp) and clang (libomp), run with a fixed team size; the
// output must match and the profile must hold the constructs with exact
// visits, worker threads under the master's call path, and barrier waiting
// where the load imbalance is.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

// A call path spelled with function short names and, for OpenMP regions,
// their role: "main/parallel/loop/work".
std::string omp_path(const Profile &p, int c) {
  const auto &j = p.json();
  std::string out;
  for (; c >= 0; c = j["callpaths"][c]["parent"].get<int>()) {
    const auto &r = j["regions"][j["callpaths"][c]["region"].get<int>()];
    std::string kind = r["kind"].get<std::string>();
    std::string name = kind == "function" ? Profile::short_name(r["name"].get<std::string>()) : kind;
    out = name + (out.empty() ? "" : "/" + out);
  }
  return out;
}

// Sum over all locations of `metric`.excl for every call path named `path`.
double sum_at(const Profile &p, const std::string &path, const std::string &metric) {
  double v = 0;
  const auto &cps = p.json()["callpaths"];
  for (size_t c = 0; c < cps.size(); ++c) {
    if (omp_path(p, int(c)) != path) continue;
    const auto &vals = cps[c]["values"][metric]["excl"];
    for (size_t l = 0; l < vals.size(); ++l) v += vals[l].get<double>();
  }
  return v;
}

// `metric`.excl at location `l` of every call path named `path`, summed.
double value_at(const Profile &p, const std::string &path, const std::string &metric, size_t l) {
  double v = 0;
  const auto &cps = p.json()["callpaths"];
  for (size_t c = 0; c < cps.size(); ++c)
    if (omp_path(p, int(c)) == path) v += cps[c]["values"][metric]["excl"][l].get<double>();
  return v;
}

struct Built {
  std::string dir, plain_out, hcc_out, hcc_build_err;
};

// Builds `src` plain and through hcc with `tc`, runs both with `threads`.
Built build_and_run(const Toolchain &tc, const std::string &src, const std::string &name,
                    int threads, const std::string &hcc_flags = "--hcc-openmp=on --hcc-functions=all") {
  Built b;
  b.dir = scratch_dir(name);
  const std::string env = "OMP_NUM_THREADS=" + std::to_string(threads) + " OMP_DYNAMIC=false ";
  RunResult c1 = run(tc.cc + " -fopenmp -O2 " + shell_quote(src) + " -o " + b.dir + "/plain");
  EXPECT_EQ(c1.status, 0) << c1.err;
  RunResult c2 = run("cd " + b.dir + " && " + hcc_bin() + " " + hcc_flags + " --hcc-compiler=" +
                     tc.cc + " -fopenmp -O2 " + shell_quote(src) + " -o app");
  EXPECT_EQ(c2.status, 0) << c2.err;
  b.hcc_build_err = c2.err;
  RunResult r1 = run(env + b.dir + "/plain");
  RunResult r2 = run("cd " + b.dir + " && " + env + "HCC_OUTPUT_DIR=" + b.dir + "/prof ./app");
  EXPECT_EQ(r1.status, 0);
  EXPECT_EQ(r2.status, 0) << r2.err;
  b.plain_out = r1.out;
  b.hcc_out = r2.out;
  return b;
}

// gcc, and the clang that builds OpenMP programs here (clang-19 with
// libomp-19-dev, else clang-14 with libomp-14-dev: tests/CMakeLists.txt).
std::vector<Toolchain> omp_toolchains() {
  std::vector<Toolchain> t = {{"gcc", "gcc", "g++"}};
  if (std::string(HCC_OMP_E2E_CLANG).size()) t.push_back({"clang", HCC_OMP_E2E_CLANG, ""});
  return t;
}

class OpenMP : public ::testing::TestWithParam<Toolchain> {};

TEST_P(OpenMP, ConstructsHaveExactVisitsAndWorkersSitUnderTheMaster) {
  const Toolchain tc = GetParam();
  Built b = build_and_run(tc, programs_dir() + "/constructs.c", "constructs-" + tc.name, 4);
  EXPECT_EQ(b.hcc_out, b.plain_out);
  Profile p = Profile::load(b.dir + "/prof");
  ASSERT_EQ(p.locations(), 4u);
  // The loop calls work() 64 times in total, whatever the schedule.
  EXPECT_EQ(sum_at(p, "main/parallel/loop/work", "visits"), 64);
  // Every one of the 4 threads enters the critical once, its body once.
  EXPECT_EQ(sum_at(p, "main/parallel/critical", "visits"), 4);
  EXPECT_EQ(sum_at(p, "main/parallel/critical/critical sblock", "visits"), 4);
  // two single constructs, each body run once
  EXPECT_EQ(sum_at(p, "main/parallel/single/single sblock", "visits"), 2);
  // master, masked filter(1) (another thread, same role) and the master
  // part of `parallel master` (a second parallel region): once each.
  EXPECT_EQ(sum_at(p, "main/parallel/master", "visits"), 3);
  // Location k is OpenMP thread k: the master's two on 0, the masked one on 1.
  EXPECT_EQ(value_at(p, "main/parallel/master", "visits", 0), 2);
  EXPECT_EQ(value_at(p, "main/parallel/master", "visits", 1), 1);
  // taskgroup and taskloop (role taskgroup: POMP2 has no taskloop event),
  // each once on the thread running the single; their tasks run somewhere.
  EXPECT_EQ(sum_at(p, "main/parallel/single/single sblock/taskgroup", "visits"), 2);
  EXPECT_EQ(p.total_visits("in_group_task"), 4);
  EXPECT_EQ(p.total_visits("in_taskloop"), 16);
  EXPECT_EQ(sum_at(p, "main/parallel/atomic", "visits"), 4);
  EXPECT_EQ(sum_at(p, "main/parallel/barrier", "visits"), 4);
  EXPECT_EQ(sum_at(p, "main/parallel/sections/section", "visits"), 2);
  EXPECT_EQ(sum_at(p, "main/parallel/sections/section/in_section", "visits"), 2);
  // Tasks: created 8 times, run 8 times (wherever), in_task once per run.
  EXPECT_EQ(p.total_visits("in_task"), 8);
  // A worker's function under the parallel region under main: leaf() is
  // called by each of the 4 threads, 3 of them workers.
  EXPECT_EQ(sum_at(p, "main/parallel/leaf", "visits"), 4);
  for (size_t l = 0; l < 4; ++l) EXPECT_EQ(value_at(p, "main/parallel/leaf", "visits", l), 1) << l;
  // The combined `parallel for`: 64 iterations call leaf().
  EXPECT_EQ(sum_at(p, "main/parallel/loop/leaf", "visits"), 64);
  // Load imbalance: iteration i costs i + 1, static schedule: threads 0..2
  // wait at the loop's barrier for thread 3.
  EXPECT_GT(sum_at(p, "main/parallel/loop/implicit barrier", "time"), 0.0);
  // Inclusive >= exclusive everywhere; the parallel region's time on a
  // worker is below main's there.
  for (const auto &cp : p.json()["callpaths"])
    for (size_t l = 0; l < cp["values"]["time"]["incl"].size(); ++l)
      EXPECT_GE(cp["values"]["time"]["incl"][l].get<double>() + 1e-12,
                cp["values"]["time"]["excl"][l].get<double>());
}

TEST_P(OpenMP, UnhandledConstructsStillCompileAndRunTheSame) {
  const Toolchain tc = GetParam();
  Built b = build_and_run(tc, std::string(HCC_OMP_REWRITE_DIR) + "/untouched.c", "untouched-" + tc.name, 4);
  EXPECT_EQ(b.hcc_out, b.plain_out);
  EXPECT_FALSE(b.plain_out.empty());
}

// masked, tasks (taskgroup/taskloop with grainsize, num_tasks, nogroup),
// user-written _Pragma("omp …"),
// doacross loops (the standalone `ordered depend` left as written inside a
// rewritten `for ordered(2)`) and linear on split combined loops: same
// output as the plain build.
TEST_P(OpenMP, MaskedTasksDoacrossAndLinearRunTheSame) {
  const Toolchain tc = GetParam();
  for (const char *f : {"masked", "tasks", "doacross", "pragma_op"}) {
    Built b = build_and_run(tc, std::string(HCC_OMP_REWRITE_DIR) + "/" + f + ".c",
                            std::string(f) + "-" + tc.name, 3);
    EXPECT_EQ(b.hcc_out, b.plain_out) << f;
    EXPECT_FALSE(b.plain_out.empty()) << f;
  }
}

// The sample, instrumented and plain, with 1 to 8 threads: same output, one
// location per thread, every thread through the critical UPDATES times.
TEST_P(OpenMP, SampleWithOneToEightThreads) {
  const Toolchain tc = GetParam();
  Built b = build_and_run(tc, samples_dir() + "/openmp/imbalance.c", "threads-" + tc.name, 1);
  for (int t = 1; t <= 8; ++t) {
    const std::string env = "OMP_NUM_THREADS=" + std::to_string(t) + " OMP_DYNAMIC=false ";
    const std::string prof = b.dir + "/prof" + std::to_string(t);
    RunResult plain = run("cd " + b.dir + " && " + env + "./plain");
    RunResult inst = run("cd " + b.dir + " && " + env + "HCC_OUTPUT_DIR=" + prof + " ./app");
    ASSERT_EQ(plain.status, 0) << t;
    ASSERT_EQ(inst.status, 0) << t << inst.err;
    EXPECT_EQ(inst.out, plain.out) << t;
    Profile p = Profile::load(prof);
    EXPECT_EQ(p.locations(), size_t(t)) << t;
    EXPECT_EQ(sum_at(p, "main/parallel/critical", "visits"), 2000.0 * t) << t;
  }
}

TEST_P(OpenMP, NestedAndOrphanedConstructs) {
  const Toolchain tc = GetParam();
  Built b = build_and_run(tc, std::string(HCC_OMP_REWRITE_DIR) + "/nesting.c", "nesting-" + tc.name, 3);
  EXPECT_EQ(b.hcc_out, b.plain_out);
  Profile p = Profile::load(b.dir + "/prof");
  // 3 threads, plus up to 2 more for the two inner teams of the nested
  // region: the runtime reuses pool threads, the idle third one for one
  // inner team, and under load (the first inner team done before the second
  // forks) for both, so at least the 3.
  EXPECT_GE(p.locations(), 3u);
  EXPECT_EQ(sum_at(p, "main/parallel/loop/ordered/ordered sblock", "visits"), 16);
  EXPECT_EQ(sum_at(p, "main/parallel/orphan/single/single sblock", "visits"), 1);
  EXPECT_EQ(sum_at(p, "main/parallel/orphan/loop/atomic", "visits"), 8);
  // Inner teams of 2 under each of the 2 outer threads: 4 inner members.
  EXPECT_EQ(sum_at(p, "main/parallel/parallel/atomic", "visits"), 4);
}

TEST_P(OpenMP, LockCallsAreMeasured) {
  const Toolchain tc = GetParam();
  Built b = build_and_run(tc, std::string(HCC_OMP_REWRITE_DIR) + "/locks.c", "locks-" + tc.name, 4);
  EXPECT_EQ(b.hcc_out, b.plain_out);
  Profile p = Profile::load(b.dir + "/prof");
  EXPECT_EQ(p.total_visits("omp_set_lock"), 400);      // 4 threads x 100
  EXPECT_EQ(p.total_visits("omp_unset_lock"), 404);    // + one after each successful test
  EXPECT_EQ(p.total_visits("omp_set_nest_lock"), 8);
  EXPECT_EQ(sum_at(p, "main/parallel/critical/critical sblock/lock", "visits"), 4);
}

// No --hcc-openmp: the default (on) rewrites the directives.
TEST_P(OpenMP, DefaultRewritesDirectives) {
  const Toolchain tc = GetParam();
  Built b = build_and_run(tc, programs_dir() + "/constructs.c", "default-" + tc.name, 2, "");
  EXPECT_EQ(b.hcc_out, b.plain_out);
  Profile p = Profile::load(b.dir + "/prof");
  EXPECT_EQ(sum_at(p, "main/parallel/critical", "visits"), 4);  // num_threads(4) in the program
}

// --hcc-functions=none: no function region at all, the constructs still
// measured with exact visits (at the root: main is not a region; with
// HCC_SAMPLING on, as in the suite's sampling pass, below a sampled main with
// no visits: the fork unwinds to find its call path).
TEST_P(OpenMP, FunctionsNoneKeepsTheConstructs) {
  const Toolchain tc = GetParam();
  Built b = build_and_run(tc, programs_dir() + "/constructs.c", "none-" + tc.name, 2, "--hcc-functions=none");
  EXPECT_EQ(b.hcc_out, b.plain_out);
  Profile p = Profile::load(b.dir + "/prof");
  // (a sampled main is named by its kind here, as every non-function region)
  auto visits = [&](const std::string &path) { return sum_at(p, path, "visits") + sum_at(p, "sampled/" + path, "visits"); };
  EXPECT_EQ(visits("parallel/critical"), 4);
  EXPECT_EQ(visits("parallel/critical/critical sblock"), 4);
  EXPECT_EQ(visits("parallel/sections/section"), 2);
  for (const char *function : {"main", "work", "leaf", "in_task", "in_section"})
    EXPECT_EQ(p.total_visits(function), 0) << function;
}

TEST_P(OpenMP, SwitchOffMeansNoOpenMPRegions) {
  const Toolchain tc = GetParam();
  Built b = build_and_run(tc, programs_dir() + "/constructs.c", "off-" + tc.name, 2, "--hcc-openmp=off");
  EXPECT_EQ(b.hcc_out, b.plain_out);
  Profile p = Profile::load(b.dir + "/prof");
  for (const auto &r : p.json()["regions"]) EXPECT_EQ(r["name"].get<std::string>().find("!$omp"), std::string::npos);
}

// Recursive tasks: every fib call above 1 creates two tasks and waits for
// them; tasks run inside other tasks' taskwaits, on any thread. Each task
// construct reached along one call path is one call path, however many
// instances ran at whatever depth: the tree stays small (401208 call paths
// and 72 MB before recursion was folded, libgomp, 4 threads).
TEST_P(OpenMP, RecursiveTasksGiveASmallTree) {
  const Toolchain tc = GetParam();
  Built b = build_and_run(tc, programs_dir() + "/fib_tasks.c", "fib-tasks-" + tc.name, 4);
  EXPECT_EQ(b.hcc_out, "fib(25) = 75025\n");
  EXPECT_EQ(b.hcc_out, b.plain_out);
  Profile p = Profile::load(b.dir + "/prof");
  EXPECT_EQ(p.total_visits("fib"), 242785);  // 2 * fib(26) - 1 calls
  // fib(n >= 2) runs 121392 times, each creating (and someone running) one
  // task of each construct.
  long long created = 0, ran = 0;
  const auto &cps = p.json()["callpaths"];
  for (size_t c = 0; c < cps.size(); ++c) {
    const std::string kind = p.json()["regions"][cps[c]["region"].get<int>()]["kind"].get<std::string>();
    for (const auto &v : cps[c]["values"]["visits"]["excl"]) {
      if (kind == "task create") created += v.get<long long>();
      if (kind == "task") ran += v.get<long long>();
    }
  }
  EXPECT_EQ(created, 2 * 121392);
  EXPECT_EQ(ran, 2 * 121392);
  EXPECT_LT(cps.size(), 64u) << "the call tree grew with the number of tasks";
  EXPECT_LT(std::filesystem::file_size(b.dir + "/prof/profile.cubex"), 64u * 1024);
  EXPECT_LT(std::filesystem::file_size(b.dir + "/prof/summary.txt"), 64u * 1024);
}

INSTANTIATE_TEST_SUITE_P(Toolchains, OpenMP, ::testing::ValuesIn(omp_toolchains()),
                         [](const auto &info) { return info.param.name; });

// hcc-report --openmp: every table's execT >= bodyT (and >= exitBarT), the
// SUM row is the column sums, and each region's overhead shares add up to
// 100 %.
TEST(OpenMPReport, NumbersAddUp) {
  const Toolchain tc = omp_toolchains()[0];
  Built b = build_and_run(tc, samples_dir() + "/openmp/imbalance.c", "report-numbers", 4);
  RunResult r = run(report_bin() + " --openmp " + b.dir + "/prof");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  std::vector<std::string> cols;
  std::vector<double> sums;
  int tables = 0, overhead_lines = 0;
  bool in_overhead = false;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<std::string> w;
    for (std::string x; ls >> x;) w.push_back(x);
    if (w.empty()) continue;
    if (w[0] == "OVERHEAD") { in_overhead = true; continue; }
    if (in_overhead) {
      if (w[0] == "parallel") continue;  // header
      // name total overhead ovhd% sync% imbal% limpar% mgmt%
      ASSERT_GE(w.size(), 8u) << line;
      size_t n = w.size();
      double shares = 0;
      for (size_t i = n - 4; i < n; ++i) shares += std::stod(w[i]);
      if (std::stod(w[n - 6]) > 0) EXPECT_NEAR(shares, 100.0, 0.05) << line;
      EXPECT_LE(std::stod(w[n - 6]), std::stod(w[n - 7]) + 1e-9) << "overhead <= total: " << line;
      ++overhead_lines;
      continue;
    }
    if (w[0] == "TID") { cols = w; sums.assign(w.size(), 0.0); ++tables; continue; }
    if (cols.empty() || w.size() != cols.size()) continue;
    std::map<std::string, double> v;
    for (size_t i = 1; i < w.size(); ++i) v[cols[i]] = std::stod(w[i]);
    if (v.count("bodyT")) EXPECT_GE(v["execT"] + 1e-6, v["bodyT"]) << line;
    if (v.count("exitBarT")) EXPECT_GE(v["execT"] + 1e-6, v["exitBarT"]) << line;
    if (w[0] == "SUM") {
      for (size_t i = 1; i < w.size(); ++i) EXPECT_NEAR(sums[i], std::stod(w[i]), 1e-5 * (1 + sums[i])) << cols[i];
    } else {
      for (size_t i = 1; i < w.size(); ++i) sums[i] += std::stod(w[i]);
    }
  }
  EXPECT_EQ(tables, 3);          // parallel, loop, critical
  EXPECT_EQ(overhead_lines, 2);  // the one region and the whole program
  // summary.txt carries the same section.
  EXPECT_NE(read_file(b.dir + "/prof/summary.txt").find("OVERHEAD ANALYSIS"), std::string::npos);
}

// The sample with 1..8 threads (gcc; clang at 3 and 8): same output as the
// plain build, exact visits, one location per thread.
TEST(OpenMPSample, ThreadCounts) {
  for (const Toolchain &tc : omp_toolchains()) {
    for (int t = 1; t <= 8; ++t) {
      if (tc.name != "gcc" && t != 3 && t != 8) continue;
      SCOPED_TRACE(tc.name + " threads=" + std::to_string(t));
      Built b = build_and_run(tc, samples_dir() + "/openmp/imbalance.c",
                              "sample-" + tc.name + "-" + std::to_string(t), t);
      EXPECT_EQ(b.hcc_out, b.plain_out);
      Profile p = Profile::load(b.dir + "/prof");
      EXPECT_EQ(p.locations(), size_t(t));
      EXPECT_EQ(sum_at(p, "main/parallel/loop/work", "visits"), 400);
      EXPECT_EQ(sum_at(p, "main/parallel/critical", "visits"), 2000.0 * t);
      if (t > 1) EXPECT_GT(sum_at(p, "main/parallel/loop/implicit barrier", "time"), 0.0);
    }
  }
}

// OpenMP 5.x (programs/omp51.c) with gcc, and with Clang 19 when it can
// link OpenMP programs (libomp-19-dev): hcc instruments the file (no
// fallback warning, Clang 19's parse errors on GCC-only constructs
// included), the program prints what its plain build prints with 1 to 8
// threads (stdout and stderr), and every construct it times has its region
// with exact visits.
struct Omp51Compiler {
  std::string name, cc, flags;
};

// Visits, summed over call paths and locations, of the region named `name`
// ("!$omp loop @omp51.c:12"; the file as hcc was given it, so compared by
// its end).
long long visits_of(const Profile &p, const std::string &name) {
  const std::string head = name.substr(0, name.find(" @") + 2), tail = name.substr(name.find(" @") + 2);
  long long v = 0;
  auto match = [&](const std::string &n) {
    return n.compare(0, head.size(), head) == 0 && n.size() >= tail.size() &&
           n.compare(n.size() - tail.size(), tail.size(), tail) == 0 &&
           (n.size() == head.size() + tail.size() || n[n.size() - tail.size() - 1] == '/');
  };
  for (int c : p.callpaths_where(match))
    for (size_t l = 0; l < p.locations(); ++l) v += (long long)p.value(c, "visits", "excl", int(l));
  return v;
}

// Line of the `// [tag]` comment in `text`.
int line_of(const std::string &text, const std::string &tag) {
  size_t at = text.find("// [" + tag + "]");
  if (at == std::string::npos) return -1;
  return 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

std::ostream &operator<<(std::ostream &os, const Omp51Compiler &c) { return os << c.name; }

class OpenMP51 : public ::testing::TestWithParam<Omp51Compiler> {};

TEST_P(OpenMP51, EveryConstructMeasuredOutputUnchangedWithOneToEightThreads) {
  const Omp51Compiler c = GetParam();
  if (c.cc.empty())
    GTEST_SKIP() << "no Clang 19 that builds OpenMP programs here (libomp-19-dev; "
                    "-DHCC_OMP51_RUN_CLANG=… names one)";
  const std::string src = programs_dir() + "/omp51.c";
  const std::string dir = scratch_dir("omp51-" + c.name);
  RunResult plain = run(c.cc + " " + c.flags + " -fopenmp -O2 " + shell_quote(src) + " -o " + dir + "/plain");
  ASSERT_EQ(plain.status, 0) << plain.err;
  RunResult built = run("cd " + dir + " && " + hcc_bin() + " --hcc-functions=all --hcc-compiler=" + c.cc + " " + c.flags +
                        " -fopenmp -O2 " + shell_quote(src) + " -o app");
  ASSERT_EQ(built.status, 0) << built.err;
  EXPECT_EQ(built.err.find("could not instrument"), std::string::npos) << built.err;
  EXPECT_EQ(built.err.find("uninstrumented"), std::string::npos) << built.err;
  for (int t = 1; t <= 8; ++t) {
    const std::string env = "OMP_NUM_THREADS=" + std::to_string(t) + " OMP_DYNAMIC=false ";
    RunResult r1 = run("cd " + dir + " && " + env + "./plain");
    RunResult r2 = run("cd " + dir + " && " + env + "HCC_VERBOSE=0 HCC_OUTPUT_DIR=" + dir + "/prof" +
                       std::to_string(t) + " ./app");
    ASSERT_EQ(r1.status, 0) << t;
    ASSERT_EQ(r2.status, 0) << t << r2.err;
    EXPECT_EQ(r2.out, r1.out) << t << " threads";
    // Its messages too: under Clang, libomp prints the `error` directive's
    // line and column.
    EXPECT_EQ(r2.err, r1.err) << t << " threads";
    EXPECT_EQ(Profile::load(dir + "/prof" + std::to_string(t)).locations(), size_t(t));
  }

  const long long T = 4;
  Profile p = Profile::load(dir + "/prof4");
  const std::string text = read_file(src);
  auto at = [&](const std::string &what, const std::string &tag) {
    return "!$omp " + what + " @omp51.c:" + std::to_string(line_of(text, tag));
  };
  EXPECT_EQ(visits_of(p, at("parallel", "parallel loop")), T);
  EXPECT_EQ(visits_of(p, at("loop", "parallel loop")), T);
  EXPECT_EQ(p.total_visits("in_loop"), 64);
  EXPECT_EQ(visits_of(p, at("loop", "loop")), T);
  EXPECT_EQ(visits_of(p, at("parallel", "parallel masked")), T);
  EXPECT_EQ(visits_of(p, at("master", "parallel masked")), 1);
  EXPECT_EQ(visits_of(p, at("nothing", "nothing")), 1);
  EXPECT_EQ(visits_of(p, at("error", "error")), 1);
  EXPECT_EQ(visits_of(p, at("atomic", "atomic compare")), 1);
  EXPECT_EQ(visits_of(p, at("atomic", "atomic compare fail")), 1);
  EXPECT_EQ(visits_of(p, at("unroll", "unroll partial")), 1);
  EXPECT_EQ(visits_of(p, at("unroll", "unroll full")), 1);
  EXPECT_EQ(visits_of(p, at("for", "default firstprivate")), T);
  EXPECT_EQ(visits_of(p, at("for", "order reproducible")), T);
  EXPECT_EQ(visits_of(p, at("taskloop", "taskloop strict")), 1);
  EXPECT_EQ(p.total_visits("device_one"), 1);
  if (c.name == "gcc") {
    EXPECT_EQ(visits_of(p, at("scope", "scope")), T);
    EXPECT_EQ(visits_of(p, at("implicit barrier", "scope")), T);
    EXPECT_EQ(visits_of(p, at("master", "masked taskloop")), 1);
    EXPECT_EQ(visits_of(p, at("taskloop", "masked taskloop")), 1);
    EXPECT_EQ(visits_of(p, at("flush", "flush seq_cst")), T);
    EXPECT_EQ(visits_of(p, at("parallel", "parallel masked taskloop")), T);
    EXPECT_EQ(visits_of(p, at("taskloop", "parallel masked taskloop")), 1);
  }
  EXPECT_EQ(p.total_visits("in_taskloop"), 128);
}

// `flush(list)` (here `flush(release)`, a variable, as the OpenMP validation
// suite writes it) and `flush acq_rel`: each flush is a region with its
// exact visits, the program prints what its plain build prints, and no
// directive is left alone.
class OpenMPFlush : public ::testing::TestWithParam<Toolchain> {};

TEST_P(OpenMPFlush, FlushWithAListOrAMemoryOrderIsMeasured) {
  const Toolchain tc = GetParam();
  const std::string src = programs_dir() + "/flush.c";
  Built b = build_and_run(tc, src, "flush-" + tc.name, 4);
  EXPECT_EQ(b.hcc_build_err.find("leaving an OpenMP directive alone"), std::string::npos) << b.hcc_build_err;
  EXPECT_EQ(b.plain_out, "threads 4, sum 172\n");
  EXPECT_EQ(b.hcc_out, b.plain_out);
  Profile p = Profile::load(b.dir + "/prof");
  const std::string text = read_file(src);
  auto at = [&](const std::string &tag) { return "!$omp flush @flush.c:" + std::to_string(line_of(text, tag)); };
  EXPECT_EQ(visits_of(p, at("flush data")), 1);
  EXPECT_EQ(visits_of(p, at("flush release")), 1);
  EXPECT_EQ(visits_of(p, at("flush acquire data")), 4);
  EXPECT_EQ(visits_of(p, at("flush acq_rel")), 4);
}

INSTANTIATE_TEST_SUITE_P(Toolchains, OpenMPFlush, ::testing::ValuesIn(omp_toolchains()),
                         [](const auto &info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(Compilers, OpenMP51,
                         ::testing::Values(Omp51Compiler{"gcc", "gcc", "-DHCC_TEST_GCC_ONLY"},
                                           Omp51Compiler{"clang19", HCC_OMP51_RUN_CLANG, ""}),
                         [](const auto &info) { return info.param.name; });

}  // namespace
}  // namespace hcc::e2e

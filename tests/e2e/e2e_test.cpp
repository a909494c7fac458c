// End-to-end: real programs built through `hcc` with GCC and with Clang
// underneath, run, and checked against their plain builds and their profiles.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {
namespace fs = std::filesystem;

struct Program {
  std::string plain_exe, hcc_exe, dir;
  RunResult plain_build, hcc_build;
};

bool is_cxx(const std::string &src) { return src.size() > 4 && src.substr(src.size() - 4) == ".cpp"; }

Program build(const Toolchain &tc, const std::string &src, const std::string &flags, const std::string &name) {
  Program p;
  p.dir = scratch_dir(tc.name + "-" + name);
  const std::string cc = is_cxx(src) ? tc.cxx : tc.cc;
  p.plain_exe = p.dir + "/plain";
  p.hcc_exe = p.dir + "/instrumented";
  p.plain_build = run(cc + " " + flags + " " + shell_quote(src) + " -o " + p.plain_exe);
  // Exact visits of small functions: every function instrumented.
  p.hcc_build = run(shell_quote(hcc_bin()) + " --hcc-compiler=" + cc + " --hcc-functions=all " + flags + " " + shell_quote(src) +
                    " -o " + p.hcc_exe);
  return p;
}

// Runs the plain and the instrumented program; both must print the same and
// end with the same status. Returns the instrumented run.
// `env`: variables for the hcc build's run ("HCC_SAMPLING=off ").
RunResult run_both(const Program &p, const std::string &profile_dir, const std::string &env = "") {
  const RunResult plain = run("cd " + shell_quote(p.dir) + " && " + p.plain_exe);
  const RunResult inst =
      run("cd " + shell_quote(p.dir) + " && " + env + "HCC_OUTPUT_DIR=" + shell_quote(profile_dir) + " " + p.hcc_exe);
  EXPECT_EQ(plain.out, inst.out) << "stdout differs between plain and hcc builds";
  EXPECT_EQ(plain.status, inst.status);
  return inst;
}

// Inclusive = exclusive + the children's inclusive, for every call path and
// location, for time (to rounding) and visits (exactly).
void expect_inclusive_consistent(const Profile &prof) {
  const auto &cps = prof.json()["callpaths"];
  std::map<int, std::vector<int>> kids;
  for (std::size_t c = 0; c < cps.size(); ++c) kids[cps[c]["parent"].get<int>()].push_back(static_cast<int>(c));
  for (std::size_t c = 0; c < cps.size(); ++c)
    for (std::size_t l = 0; l < prof.locations(); ++l) {
      const int ci = static_cast<int>(c), li = static_cast<int>(l);
      double t = prof.value(ci, "time", "excl", li);
      long long v = static_cast<long long>(prof.value(ci, "visits", "excl", li));
      for (int k : kids[ci]) {
        t += prof.value(k, "time", "incl", li);
        v += static_cast<long long>(prof.value(k, "visits", "incl", li));
      }
      const double incl = prof.value(ci, "time", "incl", li);
      EXPECT_NEAR(incl, t, 1e-9 + 1e-9 * std::fabs(incl)) << prof.path(ci) << " location " << l;
      EXPECT_EQ(static_cast<long long>(prof.value(ci, "visits", "incl", li)), v) << prof.path(ci);
      EXPECT_GE(prof.value(ci, "time", "excl", li), -1e-12) << prof.path(ci);
    }
}

// The largest value of `metric` (excl) over locations at call path `path`;
// -1 when the path or the metric is missing.
double max_over_locations(const Profile &prof, const std::string &path, const std::string &metric) {
  double best = -1;
  const auto &cps = prof.json()["callpaths"];
  for (std::size_t c = 0; c < cps.size(); ++c) {
    if (prof.path(static_cast<int>(c)) != path || !cps[c]["values"].contains(metric)) continue;
    for (const auto &v : cps[c]["values"][metric]["excl"]) best = std::max(best, v.get<double>());
  }
  return best;
}

class EndToEnd : public ::testing::TestWithParam<Toolchain> {};

TEST_P(EndToEnd, CallsRecursionMacrosPointersVariadics) {
  const Program p = build(GetParam(), programs_dir() + "/calls.c", "-O2", "calls");
  ASSERT_EQ(p.hcc_build.status, 0) << p.hcc_build.err;
  ASSERT_EQ(p.plain_build.status, 0);
  EXPECT_EQ(p.hcc_build.err, "") << "hcc printed something on a clean build";
  const std::string prof_dir = p.dir + "/profile";
  run_both(p, prof_dir);
  ASSERT_TRUE(fs::exists(prof_dir + "/profile.cubex"));
  ASSERT_TRUE(fs::exists(prof_dir + "/summary.txt"));
  const Profile prof = Profile::load(prof_dir);
  EXPECT_EQ(prof.locations(), 1u);
  EXPECT_EQ(prof.visits("main"), 1);
  EXPECT_EQ(prof.total_visits("fib"), 21891);  // fib(20) calls itself 21890 times
  // Recursion is folded: one call path holds every call, and its depth
  // (fib(20) -> ... -> fib(1)) is the recursion_depth metric.
  EXPECT_EQ(prof.visits("main/fib"), 21891);
  EXPECT_EQ(prof.visits("main/fib/fib"), 0);
  EXPECT_EQ(max_over_locations(prof, "main/fib", "recursion_depth"), 20.0);
  EXPECT_EQ(prof.visits("main/first_multiple_of_seven"), 10);
  EXPECT_EQ(prof.visits("main/checked_square"), 2);
  EXPECT_EQ(prof.visits("main/callsvia/nothing"), 1);
  EXPECT_EQ(prof.visits("main/sum_ints"), 1);
  expect_inclusive_consistent(prof);
}

TEST_P(EndToEnd, LongjmpReturnsAttributionToTheCaller) {
  const Program p = build(GetParam(), programs_dir() + "/jumps.c", "-O2", "jumps");
  ASSERT_EQ(p.hcc_build.status, 0) << p.hcc_build.err;
  run_both(p, p.dir + "/profile");
  const Profile prof = Profile::load(p.dir + "/profile");
  EXPECT_EQ(prof.visits("main/deep1/deep2/deep3"), 3);
  EXPECT_EQ(prof.visits("main/deep1"), 3);
  EXPECT_EQ(prof.visits("main/after_jump"), 1);
  for (const std::string &path : prof.paths())
    EXPECT_EQ(path.find("deep3/"), std::string::npos) << "a call after the jump landed below deep3: " << path;
  expect_inclusive_consistent(prof);
}

TEST_P(EndToEnd, ExitFromNestedCallKeepsStatusAndProfile) {
  const Program p = build(GetParam(), programs_dir() + "/early_exit.c", "-O2", "early_exit");
  ASSERT_EQ(p.hcc_build.status, 0) << p.hcc_build.err;
  const RunResult r = run_both(p, p.dir + "/profile");
  EXPECT_EQ(r.status, 3);
  const Profile prof = Profile::load(p.dir + "/profile");
  EXPECT_EQ(prof.visits("main/level1/level2"), 1);
  expect_inclusive_consistent(prof);
}

TEST_P(EndToEnd, CxxTemplatesVirtualsLambdasExceptionsThreads) {
  const Program p = build(GetParam(), programs_dir() + "/features.cpp", "-O2 -pthread -std=c++17", "features");
  ASSERT_EQ(p.hcc_build.status, 0) << p.hcc_build.err;
  run_both(p, p.dir + "/profile");
  const Profile prof = Profile::load(p.dir + "/profile");
  // Two instantiations of one template are two regions.
  const auto twice_int = prof.callpaths_where(
      [](const std::string &n) { return n.find("twice") != std::string::npos && n.find("int") != std::string::npos; });
  const auto twice_dbl = prof.callpaths_where([](const std::string &n) {
    return n.find("twice") != std::string::npos && n.find("double") != std::string::npos;
  });
  ASSERT_EQ(twice_int.size(), 1u);
  ASSERT_EQ(twice_dbl.size(), 1u);
  EXPECT_NE(prof.json()["callpaths"][twice_int[0]]["region"], prof.json()["callpaths"][twice_dbl[0]]["region"]);
  EXPECT_EQ(prof.visits("main/Square::area"), 2);
  EXPECT_EQ(prof.visits("main/Circle::area"), 1);
  // Lambdas are named after the base name of their file and their line.
  const auto lambdas = prof.callpaths_where([](const std::string &n) { return n == "lambda at features.cpp:61"; });
  ASSERT_EQ(lambdas.size(), 1u) << "lambda region not named after its file and line";
  EXPECT_EQ(prof.path(lambdas[0]), "main/lambda at features.cpp:61");
  EXPECT_EQ(prof.visits("main/lambda at features.cpp:61"), 5);
  EXPECT_EQ(prof.visits("main/catcher"), 1);
  EXPECT_EQ(prof.total_visits("thrower"), 4);  // exception unwinds 4 frames
  EXPECT_EQ(prof.visits("main/catcher/thrower"), 4);  // the recursion, folded
  EXPECT_EQ(max_over_locations(prof, "main/catcher/thrower", "recursion_depth"), 4.0);
  EXPECT_EQ(prof.total_visits("cube"), 0) << "constexpr functions are left alone";
  EXPECT_EQ(prof.locations(), 5u) << "main thread + 4 std::thread workers";
  EXPECT_EQ(prof.total_visits("worker"), 4);
  expect_inclusive_consistent(prof);
}

TEST_P(EndToEnd, UncaughtExceptionStillWritesProfile) {
  const Program p = build(GetParam(), programs_dir() + "/uncaught.cpp", "-O2", "uncaught");
  ASSERT_EQ(p.hcc_build.status, 0) << p.hcc_build.err;
  const RunResult r = run_both(p, p.dir + "/profile");
  EXPECT_EQ(r.status, 134);  // abort(), as plain
  const Profile prof = Profile::load(p.dir + "/profile");
  EXPECT_EQ(prof.total_visits("fail_deep"), 3);
}

TEST_P(EndToEnd, SyntaxErrorLooksExactlyAsWithoutHcc) {
  const Program p = build(GetParam(), programs_dir() + "/syntax_error.c", "-O2", "syntax_error");
  EXPECT_NE(p.hcc_build.status, 0);
  EXPECT_EQ(p.hcc_build.status, p.plain_build.status);
  // GCC reports the missing ';' at line 3, Clang at line 2: either way the
  // user's file, not a temporary copy.
  EXPECT_NE(p.hcc_build.err.find(programs_dir() + "/syntax_error.c:"), std::string::npos) << p.hcc_build.err;
  EXPECT_EQ(p.hcc_build.err, p.plain_build.err);
  EXPECT_FALSE(fs::exists(p.hcc_exe));
}

TEST_P(EndToEnd, MatmulSampleVariantsAreRegions) {
  const Program p = build(GetParam(), samples_dir() + "/matmul/matmul.c", "-O2 -DN=128", "matmul");
  ASSERT_EQ(p.hcc_build.status, 0) << p.hcc_build.err;
  run_both(p, p.dir + "/profile");
  const Profile prof = Profile::load(p.dir + "/profile");
  for (const char *v : {"multiply_plain", "multiply_interchange", "multiply_strip_mined", "multiply_both"})
    EXPECT_EQ(prof.visits(std::string("main/run_variant/") + v), 1) << v;
  EXPECT_EQ(prof.visits("main/run_variant/checksum"), 4);
  expect_inclusive_consistent(prof);
}

TEST_P(EndToEnd, CxxSampleRunsUnchanged) {
  const Program p = build(GetParam(), samples_dir() + "/cpp/particles.cpp", "-O2 -pthread", "particles");
  ASSERT_EQ(p.hcc_build.status, 0) << p.hcc_build.err;
  run_both(p, p.dir + "/profile");
  const Profile prof = Profile::load(p.dir + "/profile");
  EXPECT_EQ(prof.locations(), 5u);
  expect_inclusive_consistent(prof);
}

TEST_P(EndToEnd, RecursionFoldsIntoOneCallPathPerDistinctFrame) {
  const Program p = build(GetParam(), programs_dir() + "/mutual.c", "-O2", "mutual");
  ASSERT_EQ(p.hcc_build.status, 0) << p.hcc_build.err;
  const std::string prof_dir = p.dir + "/profile";
  run_both(p, prof_dir);
  const Profile prof = Profile::load(prof_dir);
  // shade: 100 calls at depth 1, 200 at 2, 400 at 3..10; bounce: 200, 400, 400 x 8.
  EXPECT_EQ(prof.visits("main/shade"), 3500);
  EXPECT_EQ(prof.visits("main/shade/mix"), 3500);
  EXPECT_EQ(prof.visits("main/shade/bounce"), 3800);
  EXPECT_EQ(prof.visits("main/shade/bounce/absorb"), 3800);
  EXPECT_EQ(prof.total_visits("shade"), 3500);
  EXPECT_EQ(prof.total_visits("bounce"), 3800);
  // The whole recursion is these call paths (unfolded it was 41).
  const std::vector<std::string> paths = prof.paths();
  EXPECT_EQ(paths.size(), 5u) << ::testing::PrintToString(paths);
  EXPECT_EQ(max_over_locations(prof, "main/shade", "recursion_depth"), 10.0);
  EXPECT_EQ(max_over_locations(prof, "main/shade/bounce", "recursion_depth"), 10.0);
  EXPECT_EQ(max_over_locations(prof, "main/shade/mix", "recursion_depth"), 1.0);
  EXPECT_LT(fs::file_size(prof_dir + "/profile.cubex"), 32u * 1024);
  EXPECT_LT(fs::file_size(prof_dir + "/summary.txt"), 32u * 1024);
  expect_inclusive_consistent(prof);
}

TEST_P(EndToEnd, RecursionTimeGoesToTheFunctionThatDidTheWork) {
  const Program p = build(GetParam(), programs_dir() + "/attribution.c", "-O2", "attribution");
  ASSERT_EQ(p.hcc_build.status, 0) << p.hcc_build.err;
  // HCC_SAMPLING=off: an exact list of call paths (GCC's machine copies of
  // heavy and light under sampling: tests/sampling, CopiesOfAnInstrumented…).
  run_both(p, p.dir + "/profile", "HCC_SAMPLING=off ");
  const Profile prof = Profile::load(p.dir + "/profile");
  EXPECT_EQ(prof.visits("main/heavy"), 32);
  EXPECT_EQ(prof.visits("main/heavy/light"), 28);
  const auto heavy = prof.callpaths_where([](const std::string &n) { return n == "heavy"; });
  const auto light = prof.callpaths_where([](const std::string &n) { return n == "light"; });
  ASSERT_EQ(heavy.size(), 1u);
  ASSERT_EQ(light.size(), 1u);
  // By construction light's share of the two is 28 units to heavy's 96
  // (0.29); inclusive accumulation per frame would make it about 9. Wall
  // time on a busy machine also holds other processes' time slices, landing
  // on whichever function runs, hence the wide margins (exact attribution
  // is checked with page faults in tests/counters and spins in tests/runtime).
  const double ratio = prof.value(light[0], "time", "excl", 0) / prof.value(heavy[0], "time", "excl", 0);
  EXPECT_GT(ratio, 0.03);
  EXPECT_LT(ratio, 2.0);
  expect_inclusive_consistent(prof);
}

TEST_P(EndToEnd, ProgramThatMeasuresNothingSaysSoOnce) {
  const Toolchain tc = GetParam();
  const std::string dir = scratch_dir(tc.name + "-nothing");
  const std::string src = shell_quote(programs_dir() + "/helpers_only.c");
  // Compiled plain, linked by hcc: nothing in it is instrumented.
  ASSERT_EQ(run(tc.cc + " -O2 -c " + src + " -o " + dir + "/main.o").status, 0);
  const RunResult link = run(shell_quote(hcc_bin()) + " --hcc-compiler=" + tc.cc + " " + dir + "/main.o -o " + dir + "/app");
  ASSERT_EQ(link.status, 0) << link.err;
  // HCC_SAMPLING=off: with sampling on, a program that enters no region is
  // measured from load and its samples make the profile (docs/sampling.md).
  const RunResult r = run("cd " + shell_quote(dir) + " && HCC_SAMPLING=off ./app");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "nothing to measure\n");
  EXPECT_EQ(r.err,
            "hcc: app measured nothing: no instrumented function ran, so no profile was written "
            "(hcc --hcc-verbose shows what the instrumentor left out)\n");
  for (const auto &e : fs::directory_iterator(dir))
    EXPECT_NE(e.path().filename().string().rfind("hcc-", 0), 0u) << "a profile directory appeared: " << e.path();
  EXPECT_EQ(run("cd " + shell_quote(dir) + " && HCC_SAMPLING=off HCC_VERBOSE=0 ./app").err, "");
  // A configure probe is passed through without the runtime: silent.
  ASSERT_EQ(run("cp " + src + " " + dir + "/conftest.c").status, 0);
  ASSERT_EQ(run("cd " + shell_quote(dir) + " && " + shell_quote(hcc_bin()) + " --hcc-compiler=" + tc.cc +
                " conftest.c -o conftest").status, 0);
  EXPECT_EQ(run("cd " + shell_quote(dir) + " && ./conftest").err, "");
  // A program that links libhcc by other means (a library check, a CMake
  // target with its run path) was not linked by hcc: silent too.
  const std::string lib = fs::path(hcc_bin()).parent_path().parent_path().string() + "/lib";
  ASSERT_EQ(run(tc.cc + " " + src + " -o " + dir + "/probe -L" + shell_quote(lib) + " -Wl,-rpath," + shell_quote(lib) +
                " -Wl,--no-as-needed -lhcc")
                .status,
            0);
  const RunResult probe = run("cd " + shell_quote(dir) + " && ./probe");
  EXPECT_EQ(probe.status, 0);
  EXPECT_EQ(probe.err, "");
}

INSTANTIATE_TEST_SUITE_P(Compilers, EndToEnd, ::testing::ValuesIn(toolchains()),
                         [](const ::testing::TestParamInfo<Toolchain> &i) { return i.param.name; });

}  // namespace
}  // namespace hcc::e2e

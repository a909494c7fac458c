// --hcc-functions=auto|all|none end to end: programs/functions_policy.cpp
// built through hcc with GCC and with Clang underneath, run, and its profile
// read back. auto (the default) measures the loop, its caller and main with
// exact visits and leaves the accessors and one-liners out (and --hcc-verbose
// says which and why); all measures everything; a filter include brings one
// small function back; the program's output never changes. A hot
// straight-line leaf of 60 operations (programs/straight_line.cpp) is left out
// under auto, and the element loop that calls it keeps exact visits.
#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

struct Built {
  std::string dir;
  RunResult build, plain, app;
};

// `run_env`: variables for the program's run ("HCC_SAMPLING=off ").
Built build(const Toolchain &tc, const std::string &tag, const std::string &hcc_flags,
            const std::string &program = "functions_policy.cpp", const std::string &expected = "3000.0 42\n",
            const std::string &run_env = "") {
  Built b;
  b.dir = scratch_dir("functions-" + tag + "-" + tc.name);
  const std::string src = shell_quote(programs_dir() + "/" + program);
  b.build = run("cd " + shell_quote(b.dir) + " && " + shell_quote(hcc_bin()) + " --hcc-compiler=" + tc.cxx + " " +
                hcc_flags + " -O2 " + src + " -o app");
  EXPECT_EQ(b.build.status, 0) << b.build.err;
  EXPECT_EQ(run(tc.cxx + " -O2 " + src + " -o " + shell_quote(b.dir + "/plain")).status, 0);
  b.plain = run(shell_quote(b.dir + "/plain"));
  b.app = run("cd " + shell_quote(b.dir) + " && " + run_env + "HCC_VERBOSE=0 HCC_OUTPUT_DIR=prof ./app");
  EXPECT_EQ(b.app.status, 0) << b.app.err;
  EXPECT_EQ(b.app.out, b.plain.out);
  EXPECT_EQ(b.app.out, expected);
  return b;
}

class Functions : public ::testing::TestWithParam<Toolchain> {};

TEST_P(Functions, AutoIsTheDefaultAndLeavesOutAccessorsAndOneLiners) {
  Built b = build(GetParam(), "auto", "--hcc-verbose");
  Profile p = Profile::load(b.dir + "/prof");
  EXPECT_EQ(p.visits("main"), 1);
  EXPECT_EQ(p.visits("main/half_total"), 3);
  EXPECT_EQ(p.visits("main/half_total/total"), 3);
  for (const char *small : {"Field::at", "Field::size", "Field::Field", "twice", "answer"})
    EXPECT_EQ(p.callpaths_where([&](const std::string &n) { return Profile::short_name(n) == small; }).size(), 0u)
        << small;
  // One line per function left out: where, what, why.
  const std::string src = programs_dir() + "/functions_policy.cpp";
  for (const std::string line :
       {":10: leaving 'Field::at' alone: --hcc-functions=auto: straight-line leaf: no loop, no call worth measuring "
        "(size 2)",
        ":17: leaving 'twice' alone: --hcc-functions=auto: straight-line leaf: no loop, no call worth measuring "
        "(size 2)",
        ":27: leaving 'answer' alone: --hcc-functions=auto: straight-line leaf: no loop, no call worth measuring "
        "(size 1)"})
    EXPECT_NE(b.build.err.find("hcc: " + src + line), std::string::npos) << line << "\n" << b.build.err;
  EXPECT_NE(b.build.err.find("3 function guard(s), 0 setjmp mark(s), 5 function(s) left out by --hcc-functions=auto"),
            std::string::npos)
      << b.build.err;
}

TEST_P(Functions, AllMeasuresEveryFunction) {
  Built b = build(GetParam(), "all", "--hcc-functions=all");
  Profile p = Profile::load(b.dir + "/prof");
  EXPECT_EQ(p.visits("main/half_total/total"), 3);
  EXPECT_EQ(p.visits("main/half_total/total/twice"), 3000);
  EXPECT_EQ(p.visits("main/half_total/total/Field::at"), 3000);
  EXPECT_EQ(p.visits("main/half_total/total/Field::size"), 3003);
  EXPECT_EQ(p.visits("main/Field::Field"), 1);
  EXPECT_EQ(p.visits("main/answer"), 1);
}

TEST_P(Functions, AFilterIncludeWinsOverTheSizeRule) {
  const std::string dir = scratch_dir("functions-keep-filt-" + GetParam().name);
  ASSERT_EQ(run("printf 'include answer\\ninclude Field::at\\n' > " + shell_quote(dir + "/keep.filt")).status, 0);
  Built b = build(GetParam(), "filter", "--hcc-filter=" + shell_quote(dir + "/keep.filt"));
  Profile p = Profile::load(b.dir + "/prof");
  EXPECT_EQ(p.visits("main/answer"), 1);
  EXPECT_EQ(p.visits("main/half_total/total/Field::at"), 3000);
  EXPECT_EQ(p.total_visits("twice"), 0);  // not named: the size rule decides
  EXPECT_EQ(p.visits("main/half_total/total"), 3);
}

TEST_P(Functions, NoneMeasuresNoFunctionAndSaysSo) {
  // HCC_SAMPLING=off: with sampling on, such a program is measured from
  // load and its samples make the profile (docs/sampling.md).
  Built b = build(GetParam(), "none", "--hcc-functions=none", "functions_policy.cpp", "3000.0 42\n",
                  "HCC_SAMPLING=off ");
  // The runtime is linked, but nothing instrumented ran (no OpenMP, MPI or
  // user region here): it says so instead of writing an empty profile.
  EXPECT_EQ(run("test -d " + shell_quote(b.dir + "/prof")).status, 1);
  RunResult r = run("cd " + shell_quote(b.dir) + " && HCC_SAMPLING=off ./app");
  EXPECT_EQ(r.out, "3000.0 42\n");
  EXPECT_NE(r.err.find("app measured nothing"), std::string::npos) << r.err;
}

// tri_weight: 9 statements, 60 operations, no loop, no call; pair_weight
// calls it twice, no loop. Both bounded: left out under auto whatever their
// size; all shows how hot they are.
const char *kStraightOut = "1.238633e+08\n";

TEST_P(Functions, AutoLeavesOutAHotStraightLineLeafAndKeepsItsCallersVisitsExact) {
  Built b = build(GetParam(), "straight-auto", "--hcc-verbose", "straight_line.cpp", kStraightOut);
  Profile p = Profile::load(b.dir + "/prof");
  EXPECT_EQ(p.visits("main"), 1);
  EXPECT_EQ(p.visits("main/element_loop"), 4);
  for (const char *leaf : {"tri_weight", "pair_weight"})
    EXPECT_EQ(p.callpaths_where([&](const std::string &n) { return Profile::short_name(n) == leaf; }).size(), 0u)
        << leaf;
  const std::string src = programs_dir() + "/straight_line.cpp";
  for (const std::string line :
       {":13: leaving 'tri_weight' alone: --hcc-functions=auto: straight-line leaf: no loop, no call worth measuring "
        "(size 69)",
        ":25: leaving 'pair_weight' alone: --hcc-functions=auto: straight-line leaf: no loop, no call worth measuring "
        "(size 5)"})
    EXPECT_NE(b.build.err.find("hcc: " + src + line), std::string::npos) << line << "\n" << b.build.err;
  EXPECT_NE(b.build.err.find("2 function guard(s), 0 setjmp mark(s), 2 function(s) left out by --hcc-functions=auto"),
            std::string::npos)
      << b.build.err;
}

TEST_P(Functions, AllMeasuresTheStraightLineLeafOnEveryCall) {
  Built b = build(GetParam(), "straight-all", "--hcc-functions=all", "straight_line.cpp", kStraightOut);
  Profile p = Profile::load(b.dir + "/prof");
  EXPECT_EQ(p.visits("main/element_loop"), 4);
  EXPECT_EQ(p.visits("main/element_loop/pair_weight"), 4 * 20000);
  EXPECT_EQ(p.visits("main/element_loop/pair_weight/tri_weight"), 2 * 4 * 20000);
}

TEST(FunctionsOption, BadValuesAreRefusedByName) {
  for (const char *bad : {"--hcc-functions=some", "--hcc-min-size=x", "--hcc-min-size="}) {
    RunResult r = run(shell_quote(hcc_bin()) + " " + bad + " -c x.c");
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
  }
}

INSTANTIATE_TEST_SUITE_P(Compilers, Functions, ::testing::ValuesIn(toolchains()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
}  // namespace hcc::e2e

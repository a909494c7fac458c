// Count mode end to end (runtime/core/README.md, "Count mode"): functions a
// filter COUNTs (or --hcc-functions=count: names) keep their call path and
// exact visits but read no clock, so their own time is 0 and their time is
// their caller's. programs/count_mode.cpp is built through hcc with GCC and
// Clang underneath, run, and its profile read back through hcc-report;
// programs/count_mode_omp.c checks visits per OpenMP thread.
#include <gtest/gtest.h>

#include <cmath>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

constexpr const char *kExpectedOutput = "999000.0 1748299.0 10\n";

struct Built {
  std::string dir;
  RunResult build, plain, app;
};

// Builds count_mode.cpp with `hcc_flags`, runs it with `env` (inline
// variables, never exported), and checks its output against the plain build.
// Count mode's own accounting (no clock: its time is its caller's) is what
// these runs check, so they run without sampling, which would give a counted
// node the time of its samples (CountModeSampling below).
Built build_and_run(const Toolchain &tc, const std::string &tag, const std::string &hcc_flags,
                    const std::string &env = "HCC_SAMPLING=off") {
  Built b;
  b.dir = scratch_dir("count-" + tag + "-" + tc.name);
  const std::string src = shell_quote(programs_dir() + "/count_mode.cpp");
  b.build = run("cd " + shell_quote(b.dir) + " && " + shell_quote(hcc_bin()) + " --hcc-compiler=" + tc.cxx +
                " --hcc-functions=all " + hcc_flags + " -O2 " + src + " -o app");
  EXPECT_EQ(b.build.status, 0) << b.build.err;
  EXPECT_EQ(run(tc.cxx + " -O2 " + src + " -o " + shell_quote(b.dir + "/plain")).status, 0);
  b.plain = run(shell_quote(b.dir + "/plain"));
  b.app = run("cd " + shell_quote(b.dir) + " && " + env + " HCC_VERBOSE=0 HCC_OUTPUT_DIR=prof ./app");
  EXPECT_EQ(b.app.status, 0) << b.app.err;
  EXPECT_EQ(b.app.out, b.plain.out);
  EXPECT_EQ(b.app.out, kExpectedOutput);
  return b;
}

bool region_counted(const Profile &p, int callpath) {
  const int r = p.json()["callpaths"][callpath]["region"].get<int>();
  return p.json()["regions"][r].value("counted", false);  // present on counted regions only
}

int callpath_of(const Profile &p, const std::string &path) {
  for (std::size_t c = 0; c < p.json()["callpaths"].size(); ++c)
    if (p.path(int(c)) == path) return int(c);
  return -1;
}

// Exact visits per call path, the counted regions marked, their own time 0,
// inclusive = exclusive + children on every node.
void expect_counted_profile(const std::string &dir) {
  const Profile p = Profile::load(dir + "/prof");
  ASSERT_EQ(p.locations(), 1u);
  EXPECT_EQ(p.visits("main"), 1);
  EXPECT_EQ(p.visits("main/caller_a/counted_leaf"), 1000);
  EXPECT_EQ(p.visits("main/caller_b/counted_leaf"), 7);
  EXPECT_EQ(p.visits("main/caller_b/counted_with_child"), 7);
  EXPECT_EQ(p.visits("main/caller_b/counted_with_child/work"), 7);
  // Folded recursion: every frame on the one call path, 10 of them recursive.
  EXPECT_EQ(p.visits("main/counted_rec"), 11);
  EXPECT_EQ(p.paths().size(), 8u);

  const auto &cps = p.json()["callpaths"];
  for (std::size_t c = 0; c < cps.size(); ++c) {
    const std::string name = Profile::short_name(p.region_name(int(c)));
    const bool counted = name.rfind("counted_", 0) == 0;
    EXPECT_EQ(region_counted(p, int(c)), counted) << p.path(int(c));
    const double excl = p.value(int(c), "time", "excl", 0), incl = p.value(int(c), "time", "incl", 0);
    // Inclusive = exclusive + the children's inclusive (CUBE stores time
    // inclusive; the reader derives exclusive: both must agree).
    double children = 0;
    for (std::size_t k = 0; k < cps.size(); ++k)
      if (cps[k]["parent"].get<int>() == int(c)) children += p.value(int(k), "time", "incl", 0);
    EXPECT_NEAR(incl, excl + children, 1e-12 + 1e-9 * incl) << p.path(int(c));
    if (counted) {
      EXPECT_EQ(excl, 0.0) << "a counted call path has no time of its own: " << p.path(int(c));
    } else {
      EXPECT_GE(excl, 0.0) << p.path(int(c));
      EXPECT_GT(incl, 0.0) << "a timed call path read the clock: " << p.path(int(c));
    }
  }
  // A counted leaf has no timed child: no time at all. Its caller keeps the time.
  EXPECT_EQ(p.value(callpath_of(p, "main/caller_a/counted_leaf"), "time", "incl", 0), 0.0);
  const int cwc = callpath_of(p, "main/caller_b/counted_with_child");
  const int work = callpath_of(p, "main/caller_b/counted_with_child/work");
  ASSERT_GE(cwc, 0);
  ASSERT_GE(work, 0);
  EXPECT_EQ(p.value(cwc, "time", "incl", 0), p.value(work, "time", "incl", 0));
  EXPECT_GT(p.value(work, "time", "incl", 0), 0.0);
}

class CountMode : public ::testing::TestWithParam<Toolchain> {};

TEST_P(CountMode, ScorePFilterCountLinesCountAtCompileTime) {
  const std::string dir = scratch_dir("count-filt-" + GetParam().name);
  ASSERT_EQ(run("printf 'SCOREP_REGION_NAMES_BEGIN\\n  COUNT counted_*\\nSCOREP_REGION_NAMES_END\\n' > " +
                shell_quote(dir + "/count.filt"))
                .status,
            0);
  Built b = build_and_run(GetParam(), "scorep", "--hcc-filter=" + shell_quote(dir + "/count.filt"));
  expect_counted_profile(b.dir);
  // The rewritten source calls count mode's hooks through their slots, not
  // the timed guard: `call *__hcc_s_hcc_count_enter(%rip)` in the two counted
  // functions that call something (noinline, so one call site each), the
  // one-call visit in counted_leaf, which calls nothing.
  const std::string dis = "objdump -d --no-show-raw-insn " + shell_quote(b.dir + "/app");
  EXPECT_EQ(run(dis + " | grep -c 'call.*<__hcc_s_hcc_count_enter>$'").out, "2\n");
  EXPECT_EQ(run(dis + " | grep -c 'call.*<__hcc_s_hcc_count_visit>$'").out, "1\n");
}

TEST_P(CountMode, FunctionsOptionNamesFunctionsToCount) {
  Built b = build_and_run(GetParam(), "option",
                          "'--hcc-functions=count:counted_leaf,counted_with_child' --hcc-functions=count:counted_rec");
  expect_counted_profile(b.dir);
}

TEST_P(CountMode, RunTimeFilterCountLinesNeedNoRebuild) {
  // Built timed; HCC_FILTER's COUNT line decides when the region registers.
  const std::string dir = scratch_dir("count-rt-" + GetParam().name);
  ASSERT_EQ(run("printf 'count counted_*\\n' > " + shell_quote(dir + "/rt.filt")).status, 0);
  Built b = build_and_run(GetParam(), "runtime", "", "HCC_SAMPLING=off HCC_FILTER=" + shell_quote(dir + "/rt.filt"));
  expect_counted_profile(b.dir);
  RunResult calls = run("objdump -d --no-show-raw-insn " + shell_quote(b.dir + "/app") +
                        " | grep -c 'call.*<__hcc_s_hcc_count_enter>$'");
  EXPECT_EQ(calls.out, "0\n") << "built timed: " << calls.out;
}

// The views mark a counted region's time as one from samples (`~`,
// text_views/marks.hpp) in the time columns of its lines, and no other
// line's. Without sampling (so no sampled frame is marked too) its samples
// are none: `~0.000`, and summary.txt says its time stayed its caller's.
TEST_P(CountMode, ReportViewsMarkCountedTimesAsFromSamples) {
  Built b = build_and_run(GetParam(), "views", "--hcc-functions=count:counted_*", "HCC_SAMPLING=off");
  const std::string summary = read_file(b.dir + "/prof/summary.txt");
  EXPECT_NE(summary.find("Counted:    "), std::string::npos) << summary;
  EXPECT_NE(summary.find("no samples in this run (HCC_SAMPLING=off): their time is their caller's)"), std::string::npos)
      << summary;
  for (const std::string view : {"", "--tree"}) {  // "": the flat profile, hcc-report's default
    RunResult r = run(shell_quote(report_bin()) + " " + view + " " + shell_quote(b.dir + "/prof"));
    ASSERT_EQ(r.status, 0) << r.err;
    // Every line whose region (the last name of a hot path's chain) is
    // counted has its exclusive time marked; no other line has a mark.
    std::size_t counted_lines = 0, b0 = 0;
    while (b0 < r.out.size()) {
      std::size_t e = r.out.find('\n', b0);
      if (e == std::string::npos) e = r.out.size();
      const std::string line = r.out.substr(b0, e - b0);
      b0 = e + 1;
      const std::size_t at = line.rfind(" counted_");
      const bool names_counted = at != std::string::npos && line.find("\u2192", at) == std::string::npos;
      const bool marked = line.find(view.empty() ? "  ~0.000  " : "~0.000  ") != std::string::npos;
      EXPECT_EQ(names_counted, marked) << view << ": " << line;
      if (names_counted) EXPECT_EQ(line.find(" counted "), std::string::npos) << "the old cell: " << line;
      counted_lines += marked;
    }
    // Flat: 3 regions and the hot paths' 4 call paths; --tree: 4 call paths.
    EXPECT_EQ(counted_lines, view.empty() ? 7u : 4u) << r.out;
    EXPECT_NE(r.out.find("\n~ time from samples (not timed by hcc: sampled, counted or throttled)\n"), std::string::npos)
        << r.out;
  }
}

TEST_P(CountMode, BadCountFilterLineNamesFileAndLine) {
  const std::string dir = scratch_dir("count-bad-" + GetParam().name);
  ASSERT_EQ(run("printf 'SCOREP_FILE_NAMES_BEGIN\\n  COUNT *.c\\nSCOREP_FILE_NAMES_END\\n' > " +
                shell_quote(dir + "/bad.filt"))
                .status,
            0);
  RunResult r = run("cd " + shell_quote(dir) + " && " + shell_quote(hcc_bin()) + " --hcc-compiler=" + GetParam().cxx +
                    " --hcc-filter=bad.filt -c " + shell_quote(programs_dir() + "/count_mode.cpp") + " -o x.o");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("bad.filt:2: 'COUNT' in a file-name block"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Compilers, CountMode, ::testing::ValuesIn(toolchains()),
                         [](const auto &info) { return info.param.name; });

TEST(CountModeOption, EmptyCountListIsRefusedByName) {
  RunResult r = run(shell_quote(hcc_bin()) + " --hcc-functions=count: -c x.c");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("'--hcc-functions=count:' names no function"), std::string::npos) << r.err;
}

// OpenMP: the counted function runs on three threads; each thread's visits
// are its own loop count, exactly, under the parallel region.
TEST(CountModeOpenMP, CountsPerThreadInsideAParallelRegion) {
  const std::string dir = scratch_dir("count-omp");
  const std::string src = shell_quote(programs_dir() + "/count_mode_omp.c");
  RunResult b = run("cd " + shell_quote(dir) + " && " + shell_quote(hcc_bin()) +
                    " --hcc-compiler=gcc --hcc-functions=all --hcc-functions=count:counted_tick -fopenmp -O2 " + src +
                    " -o app");
  ASSERT_EQ(b.status, 0) << b.err;
  RunResult app = run("cd " + shell_quote(dir) + " && HCC_SAMPLING=off HCC_VERBOSE=0 HCC_OUTPUT_DIR=prof ./app");
  ASSERT_EQ(app.status, 0) << app.err;
  EXPECT_EQ(app.out, "165\n");
  const Profile p = Profile::load(dir + "/prof");
  ASSERT_EQ(p.locations(), 3u);
  const auto where = p.callpaths_where([](const std::string &n) { return n == "counted_tick"; });
  ASSERT_EQ(where.size(), 1u) << "one call path, below the parallel region";
  const int c = where[0];
  EXPECT_NE(p.path(c).find("team_work/"), std::string::npos) << p.path(c);
  EXPECT_TRUE(region_counted(p, c));
  for (int l = 0; l < 3; ++l) {
    // Location l is OpenMP thread l (runtime/core/README.md, "Location order").
    EXPECT_EQ(p.value(c, "visits", "excl", l), 100 + 10 * l) << "thread " << l;
    EXPECT_EQ(p.value(c, "time", "excl", l), 0.0) << "thread " << l;
  }
}

// HCC_SAMPLING: samples inside a counted function (here in helper, which the
// filter excludes, so only sampling sees it) keep their call path below the
// counted node, as any sample keeps it below the innermost instrumented
// frame, and carry their CPU time: the counted node's inclusive time is that
// of its samples and its children's, taken out of main's exclusive time
// (every run is hybrid, untimed_time.hpp).
TEST(CountModeSampling, SamplesBelowACountedFunctionKeepTheirCallPath) {
  const std::string dir = scratch_dir("count-sampled");
  const std::string src = shell_quote(programs_dir() + "/count_mode_sampled.c");
  ASSERT_EQ(run("printf 'SCOREP_REGION_NAMES_BEGIN\\n EXCLUDE helper\\n COUNT spin\\nSCOREP_REGION_NAMES_END\\n' > " +
                shell_quote(dir + "/s.filt"))
                .status,
            0);
  RunResult b = run("cd " + shell_quote(dir) + " && " + shell_quote(hcc_bin()) +
                    " --hcc-compiler=gcc --hcc-functions=all --hcc-filter=s.filt -O2 " + src + " -o app");
  ASSERT_EQ(b.status, 0) << b.err;
  ASSERT_EQ(run("gcc -O2 " + src + " -o " + shell_quote(dir + "/plain")).status, 0);
  RunResult plain = run(shell_quote(dir + "/plain"));
  RunResult app = run("cd " + shell_quote(dir) + " && HCC_SAMPLING=1000 HCC_VERBOSE=0 HCC_OUTPUT_DIR=prof ./app");
  ASSERT_EQ(app.status, 0) << app.err;
  EXPECT_EQ(app.out, plain.out);
  const Profile p = Profile::load(dir + "/prof");
  EXPECT_EQ(p.visits("main/spin"), 4);
  const int spin = callpath_of(p, "main/spin"), main_c = callpath_of(p, "main");
  ASSERT_GE(spin, 0);
  EXPECT_TRUE(region_counted(p, spin));
  // About 0.2 s of CPU in helper at 1000 Hz: samples, below the counted node.
  const int helper = callpath_of(p, "main/spin/helper");
  ASSERT_GE(helper, 0) << "the sampled frame below the counted one";
  const double in_helper = p.value(helper, "samples", "excl", 0);
  EXPECT_GT(in_helper, 0.0);
  EXPECT_GE(p.value(spin, "samples", "incl", 0), in_helper);
  // helper's time is the CPU time of its samples (scaled down only where
  // they would exceed main's exclusive time, by a tick at most), and spin's
  // inclusive time holds it: inclusive = exclusive + children on the
  // counted node too.
  EXPECT_NEAR(p.value(helper, "time", "incl", 0), p.value(helper, "sampled_cpu", "incl", 0),
              0.02 * p.value(helper, "sampled_cpu", "incl", 0));
  EXPECT_GT(p.value(helper, "time", "incl", 0), 0.1);
  EXPECT_GE(p.value(spin, "time", "incl", 0), p.value(helper, "time", "incl", 0));
  EXPECT_NEAR(p.value(spin, "time", "incl", 0),
              p.value(spin, "time", "excl", 0) + p.value(helper, "time", "incl", 0), 1e-9);
  double main_children = 0;  // spin, and any sampled frame of main's own
  for (std::size_t c = 0; c < p.json()["callpaths"].size(); ++c)
    if (p.json()["callpaths"][c]["parent"].get<int>() == main_c) main_children += p.value(int(c), "time", "incl", 0);
  EXPECT_NEAR(p.value(main_c, "time", "incl", 0), p.value(main_c, "time", "excl", 0) + main_children, 1e-9);
  EXPECT_GE(main_children, p.value(spin, "time", "incl", 0));
}

}  // namespace
}  // namespace hcc::e2e

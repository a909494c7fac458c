// End-to-end test of the default throttling (runtime/core/auto_throttle.cpp):
// a program built through the real `hcc` with every function instrumented,
// run with HCC_THROTTLE unset and with HCC_THROTTLE=off, checked through
// hcc-report. What must hold whatever the machine's load: the cheap function
// functions are throttled and named with their evidence (a leaf inside a
// folded recursion too), every visit is still counted on its call path (the
// two trees are equal, with HCC_COUNT_STOP=off), the costly, the recursive
// and the trunk functions stay timed, and the program prints the same. A
// count that stops (the default) is a lower bound, says so, and moves
// nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

const std::string kProgram = std::string(HCC_FILTER_PROGRAMS) + "/throttle_mix.cpp";

RunResult run_in(const std::string &dir, const std::string &exe, const std::string &tag, const std::string &env,
                 const std::string &args = "") {
  return run("cd " + shell_quote(dir) + " && env HCC_VERBOSE=0 HCC_OUTPUT_DIR=" + shell_quote(dir + "/out-" + tag) +
             " " + env + " " + shell_quote(exe) + " " + args);
}

// Builds `sources` (files of tests/filter/programs, or absolute paths)
// through hcc with every function instrumented, -O1, into `exe`.
RunResult build_all(const std::string &exe, const std::vector<std::string> &sources) {
  std::string files;
  for (const std::string &f : sources)
    files += shell_quote(f.front() == '/' ? f : std::string(HCC_FILTER_PROGRAMS) + "/" + f) + " ";
  return run(shell_quote(hcc_bin()) + " --hcc-functions=all -O1 " + files + "-o " + shell_quote(exe));
}

// Builds `sources` into DIR/app and runs it twice, with `env_a` and `env_b`
// (profiles in DIR/out-TAG): both must run, and print the same.
testing::AssertionResult built_and_run_twice(const std::string &dir, const std::vector<std::string> &sources,
                                             const std::string &tag_a, const std::string &env_a,
                                             const std::string &tag_b, const std::string &env_b) {
  const std::string exe = dir + "/app";
  const RunResult b = build_all(exe, sources);
  if (b.status != 0) return testing::AssertionFailure() << "build: " << b.err;
  const RunResult a = run_in(dir, exe, tag_a, env_a), other = run_in(dir, exe, tag_b, env_b);
  if (a.status != 0 || other.status != 0) return testing::AssertionFailure() << a.err << other.err;
  if (a.out != other.out) return testing::AssertionFailure() << "outputs differ:\n" << a.out << "\n" << other.out;
  return testing::AssertionSuccess();
}

// Visits of every instrumented call path (sampled paths, which have none
// and depend on where samples happened to land, left out).
std::map<std::string, long long> visits_by_path(const Profile &p) {
  std::map<std::string, long long> t;
  for (const std::string &path : p.paths())
    if (const long long v = p.visits(path)) t[path] = v;
  return t;
}

// The summary's line for `name` in THROTTLED REGIONS, or "".
std::string throttled_line(const std::string &summary, const std::string &name) {
  const size_t at = summary.find("\n  " + name + " (after ");
  if (at == std::string::npos) return "";
  return summary.substr(at + 3, summary.find('\n', at + 1) - at - 3);
}

TEST(Throttle, ByDefaultACheapFunctionIsTimedNoMoreButEveryVisitCountedOnItsPath) {
  const std::string dir = scratch_dir("throttle-default");
  const std::string exe = dir + "/app";
  const RunResult b = build_all(exe, {kProgram});
  ASSERT_EQ(b.status, 0) << b.err;
  // Every visit counted: the counts do not stop (HCC_COUNT_STOP, tested below).
  const RunResult on = run_in(dir, exe, "default", "HCC_COUNT_STOP=off");
  ASSERT_EQ(on.status, 0) << on.err;
  const RunResult off = run_in(dir, exe, "off", "HCC_THROTTLE=off");
  ASSERT_EQ(off.status, 0) << off.err;
  EXPECT_EQ(on.out, off.out);

  const std::string summary = read_file(dir + "/out-default/summary.txt");
  EXPECT_NE(summary.find("THROTTLED REGIONS (timed until the calls shown; every visit counted"), std::string::npos)
      << summary;
  const std::string tiny = throttled_line(summary, "tiny(unsigned int)");
  ASSERT_FALSE(tiny.empty()) << summary;
  EXPECT_NE(tiny.find(" us/call, under 10 pairs of "), std::string::npos) << tiny;
  // Judged once it had 100 000 visits, and before the run's 3 000 000 ended.
  const double timed = std::atof(tiny.c_str() + tiny.find("(after ") + 7);
  EXPECT_GE(timed, 100000) << tiny;
  EXPECT_LT(timed, 3000000) << tiny;
  // rec_leaf: 220 000 calls of a leaf at the bottom of a folded recursion.
  EXPECT_NE(throttled_line(summary, "rec_leaf(unsigned int)"), "") << summary;
  // heavy: 120 000 calls of several microseconds (far above 10 pairs);
  // rec: recursive; caller_a, caller_b, main: few calls.
  for (const char *kept : {"heavy(unsigned int)", "rec(unsigned int, unsigned int)", "caller_a", "caller_b", "main"})
    EXPECT_EQ(throttled_line(summary, kept), "") << kept << "\n" << summary;
  EXPECT_EQ(read_file(dir + "/out-off/summary.txt").find("THROTTLED"), std::string::npos);

  // Every visit of every call path, as when nothing is throttled: tiny's
  // 2 000 000 below caller_a and 1 000 000 below caller_b included.
  const Profile p_on = Profile::load(dir + "/out-default"), p_off = Profile::load(dir + "/out-off");
  EXPECT_EQ(visits_by_path(p_on), visits_by_path(p_off));
  EXPECT_EQ(p_on.visits("main/caller_a/tiny"), 2000000);
  EXPECT_EQ(p_on.visits("main/caller_b/tiny"), 1000000);
  EXPECT_EQ(p_on.total_visits("heavy"), 120000);
  EXPECT_EQ(p_on.total_visits("rec_leaf"), 220000);
}

// Throttling never moves a callee (issue 41): a throttled function's frame
// is still pushed (without a clock), so what it calls stays below it. Before,
// a run of 600 000 calls of the throttled `mid` showed its callee `leaf`
// below main for the calls after throttling, a path the program never takes,
// and --diff against a shorter, unthrottled run listed it as only in B.
TEST(Throttle, AThrottledMiddleFunctionKeepsItsCalleesBelowIt) {
  const std::string dir = scratch_dir("throttle-middle");
  const std::string exe = dir + "/app";
  const RunResult b = build_all(exe, {"throttle_middle.cpp"});
  ASSERT_EQ(b.status, 0) << b.err;
  const RunResult shorter = run_in(dir, exe, "short", "", "100000");
  ASSERT_EQ(shorter.status, 0) << shorter.err;
  const RunResult longer = run_in(dir, exe, "long", "", "600000");
  ASSERT_EQ(longer.status, 0) << longer.err;
  ASSERT_NE(throttled_line(read_file(dir + "/out-long/summary.txt"), "mid(unsigned int, unsigned int)"), "")
      << read_file(dir + "/out-long/summary.txt");

  const Profile p_short = Profile::load(dir + "/out-short"), p_long = Profile::load(dir + "/out-long");
  EXPECT_EQ(p_short.visits("main/mid/leaf"), 6250);
  EXPECT_EQ(p_long.visits("main/mid"), 600000);
  EXPECT_EQ(p_long.visits("main/mid/leaf"), 37500);  // every call of leaf, below mid
  // Every path is one the program took: leaf only below mid, mid and nap_ms
  // only below main (sampled frames may hang below any of them).
  const std::map<std::string, std::string> caller = {{"leaf", "mid"}, {"mid", "main"}, {"nap_ms", "main"}};
  for (const Profile *p : {&p_short, &p_long})
    for (const std::string &path : p->paths()) {
      std::string before;
      for (size_t b0 = 0; b0 <= path.size();) {
        size_t e = path.find('/', b0);
        if (e == std::string::npos) e = path.size();
        const std::string name = path.substr(b0, e - b0);
        auto it = caller.find(name);
        if (it != caller.end()) EXPECT_EQ(before, it->second) << "a path the program never took: " << path;
        before = name;
        b0 = e + 1;
      }
    }
  const RunResult diff = run(shell_quote(report_bin()) + " --diff " + shell_quote(dir + "/out-short") + " " +
                             shell_quote(dir + "/out-long"));
  ASSERT_EQ(diff.status, 0) << diff.err;
  EXPECT_NE(diff.out.find("main → mid(unsigned int, unsigned int) → leaf(unsigned int)"), std::string::npos)
      << diff.out;
  // No instrumented path is in one run only (sampled paths, where samples
  // happened to land, may be).
  const std::set<std::string> measured = {"main", "mid(unsigned int, unsigned int)", "leaf(unsigned int)",
                                          "nap_ms(int)"};
  std::istringstream lines(diff.out);
  for (std::string line; std::getline(lines, line);) {
    const size_t only = line.find("  (only in ");
    if (only == std::string::npos) continue;
    const size_t start = line.rfind("  ", only - 1);
    std::string path = line.substr(start == std::string::npos ? 0 : start + 2, only - (start + 2));
    bool all_measured = true;
    for (size_t b0 = 0; b0 <= path.size() && all_measured;) {
      size_t e = path.find(" \u2192 ", b0);
      if (e == std::string::npos) e = path.size();
      all_measured = measured.count(path.substr(b0, e - b0)) != 0;
      b0 = e + std::string(" \u2192 ").size();
    }
    EXPECT_FALSE(all_measured) << "an instrumented path in one run only: " << line;
  }
}

// A count that costs more than it tells stops (HCC_COUNT_STOP, on by
// default): `probe`, a leaf of a few instructions called 20 M times, is
// throttled, then its count stops: its visits are a lower bound (at least
// the 100 000 it was judged on, fewer than it had) that every text view and
// the JSON mark as one, the summary says when and why, and on x86-64 its
// guard calls are nops now (hcc.stopped_sites). Its samples stay below the
// function that called it (main, or outer, which calls it 5 M times later),
// and the program prints what it prints with HCC_COUNT_STOP=off, where every
// visit is counted.
TEST(Throttle, ACountThatCostsMoreThanItTellsStopsAndIsShownAsALowerBound) {
  const std::string dir = scratch_dir("throttle-count-stop");
  ASSERT_TRUE(built_and_run_twice(dir, {"count_stop.cpp"}, "stop", "HCC_SAMPLING=1000", "all", "HCC_COUNT_STOP=off"));

  const std::string summary = read_file(dir + "/out-stop/summary.txt");
  const size_t at = summary.find("\n  probe(unsigned int) (count stopped at ");
  ASSERT_NE(at, std::string::npos) << summary;
  EXPECT_NE(summary.find("COUNTS STOPPED (throttled regions whose counting cost more than it told"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find(" visits per CPU second at ", at), std::string::npos) << summary;
  const Profile p = Profile::load(dir + "/out-stop"), exact = Profile::load(dir + "/out-all");
  EXPECT_EQ(exact.visits("main/probe"), 20000000);
  EXPECT_EQ(exact.visits("main/outer"), 5000000);
  EXPECT_GE(p.visits("main/probe"), 100000);
  EXPECT_LT(p.visits("main/probe"), 20000000);
  EXPECT_EQ(p.visits("main/nap_ms"), 2);  // what was not stopped stays exact
  // The views: ≥ on the visits, with the legend line; JSON's flag.
  const RunResult flat = run(shell_quote(report_bin()) + " " + shell_quote(dir + "/out-stop"));
  ASSERT_EQ(flat.status, 0) << flat.err;
  EXPECT_NE(flat.out.find("\u2265" + std::to_string(p.visits("main/probe")) + " "), std::string::npos) << flat.out;
  EXPECT_NE(flat.out.find("\u2265 visits a lower bound (count stopped"), std::string::npos) << flat.out;
  const RunResult json = run(shell_quote(report_bin()) + " --json " + shell_quote(dir + "/out-stop"));
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_NE(json.out.find("\"visits_lower_bound\":true"), std::string::npos) << json.out.substr(0, 2000);
#if defined(__x86_64__)
  // The attribute in the CUBE file's XML (an uncompressed member).
  const std::string cube = read_file(dir + "/out-stop/profile.cubex");
  const std::string key = "key=\"hcc.stopped_sites\" value=\"";
  const size_t k = cube.find(key);
  ASSERT_NE(k, std::string::npos);
  EXPECT_GE(std::atoi(cube.c_str() + k + key.size()), 2) << "probe's enter and exit guard calls";
#endif
  // Every path is one the program took: probe below main or outer, outer
  // below main.
  for (const std::string &path : p.paths()) {
    const size_t probe = path.find("probe");
    if (probe != std::string::npos) EXPECT_TRUE(path == "main/probe" || path == "main/outer/probe") << path;
    if (path.find("outer") != std::string::npos) EXPECT_EQ(path.rfind("main/outer", 0), 0u) << path;
  }
}

// The pair as the run paid it prices a function (auto_throttle.cpp): `dear`
// and `twin` do the same microseconds of work a call, far above ten timed
// pairs; only dear's call path gets measurement_cpu, several microseconds a
// visit (in_run_price.cpp hands the runtime a sample in hcc's code on each
// call). So dear is throttled, priced at what its events cost in the run, and
// its count then stops on the same evidence; twin stays timed and exact.
TEST(Throttle, ThePairAsTheRunPaidItThrottlesAndStopsWhatTheTimedPairWouldNot) {
  const std::string dir = scratch_dir("throttle-in-run");
  // Sampling on whatever the suite's pass says: the price is its metric.
  ASSERT_TRUE(built_and_run_twice(dir, {"in_run_price.cpp"}, "priced", "HCC_SAMPLING=on", "off", "HCC_THROTTLE=off"));

  const std::string summary = read_file(dir + "/out-priced/summary.txt");
  const std::string line = throttled_line(summary, "dear(unsigned int)");
  EXPECT_NE(line.find(" ns as paid in this run)"), std::string::npos) << summary;
  EXPECT_EQ(throttled_line(summary, "twin(unsigned int)"), "") << summary;
  EXPECT_NE(summary.find("\n  dear(unsigned int) (count stopped at "), std::string::npos) << summary;
  EXPECT_NE(summary.find("of the CPU time was spent in hcc's code on its call paths, over 2%)"), std::string::npos)
      << summary;
  const Profile p = Profile::load(dir + "/out-priced");
  EXPECT_EQ(p.visits("main/twin_loop/twin"), 150000);
  EXPECT_GE(p.visits("main/dear_loop/dear"), 100000);
  EXPECT_LT(p.visits("main/dear_loop/dear"), 150000);
}

// A function that recurses only through another (bounce, between walk's
// frames) costs a timed pair per call inside the recursion however it is
// marked, so instead of being throttled its count stops (auto_throttle.cpp).
// Nothing moves: walk's every visit stays on main/walk (its recursive calls
// folded there, as with HCC_COUNT_STOP=off), bounce appears only below walk,
// its visits a lower bound; inclusive = exclusive + children holds on every
// call path, and the program prints the same.
TEST(Throttle, AFunctionRecursingThroughAnotherStopsItsCountAndMovesNoPath) {
  const std::string dir = scratch_dir("throttle-fold-stop");
  ASSERT_TRUE(built_and_run_twice(dir, {"fold_stop.cpp"}, "stop", "", "all", "HCC_COUNT_STOP=off"));
  const std::string summary = read_file(dir + "/out-stop/summary.txt");
  const size_t at = summary.find("\n  bounce(unsigned int, unsigned int) (count stopped at ");
  ASSERT_NE(at, std::string::npos) << summary;
  EXPECT_NE(summary.find("it recurses through another function", at), std::string::npos) << summary;
  EXPECT_EQ(throttled_line(read_file(dir + "/out-all/summary.txt"), "bounce(unsigned int, unsigned int)"), "")
      << "without count stops it stays timed";
  const Profile p = Profile::load(dir + "/out-stop"), exact = Profile::load(dir + "/out-all");
  EXPECT_EQ(exact.visits("main/walk"), 600000);  // 2 x 60 000 x 5 frames
  EXPECT_EQ(exact.visits("main/walk/bounce"), 480000);
  EXPECT_EQ(p.visits("main/walk"), 600000);
  EXPECT_EQ(p.total_visits("walk"), 600000);
  EXPECT_GE(p.visits("main/walk/bounce"), 100000);
  EXPECT_LT(p.visits("main/walk/bounce"), 480000);
  const auto &cps = p.json()["callpaths"];
  for (std::size_t c = 0; c < cps.size(); ++c) {
    const std::string path = p.path(int(c));
    if (path.find("walk") != std::string::npos) EXPECT_EQ(path.rfind("main/walk", 0), 0u) << path;
    if (path.find("bounce") != std::string::npos) EXPECT_EQ(path.rfind("main/walk/bounce", 0), 0u) << path;
    EXPECT_EQ(path.find("bounce/walk"), std::string::npos) << "walk folds onto main/walk: " << path;
    const double excl = p.value(int(c), "time", "excl", 0), incl = p.value(int(c), "time", "incl", 0);
    double children = 0;
    for (std::size_t k = 0; k < cps.size(); ++k)
      if (cps[k]["parent"].get<int>() == int(c)) children += p.value(int(k), "time", "incl", 0);
    EXPECT_NEAR(incl, excl + children, 1e-12 + 1e-9 * incl) << path;
    EXPECT_GE(excl, 0.0) << path;
  }
}

// A twin of a stopped region (the same static function compiled into two
// files: two descriptors, one region) registered after the stop records
// nothing and is rewritten too: before, its first enter pushed a frame of a
// region id with the stop bit in it. The program runs to its end with the
// output of HCC_COUNT_STOP=off, twin_probe's visits stay a lower bound (no
// more than both files' 25 M calls), and later_calls, which calls it, is on
// the path below main.
TEST(Throttle, ATwinOfAStoppedRegionRegisteredLaterRecordsNothing) {
  const std::string dir = scratch_dir("throttle-count-stop-twin");
  ASSERT_TRUE(built_and_run_twice(dir, {"count_stop_twin_a.c", "count_stop_twin_b.c"}, "stop", "", "all",
                                  "HCC_COUNT_STOP=off"));
  const std::string summary = read_file(dir + "/out-stop/summary.txt");
  ASSERT_NE(summary.find("\n  twin_probe (count stopped at "), std::string::npos) << summary;
  const Profile p = Profile::load(dir + "/out-stop"), exact = Profile::load(dir + "/out-all");
  EXPECT_EQ(exact.total_visits("twin_probe"), 25000000);
  EXPECT_LT(p.total_visits("twin_probe"), 25000000);
  EXPECT_EQ(p.visits("main/later_calls"), 1);
  for (const std::string &path : p.paths()) EXPECT_EQ(path.find("twin_probe/"), std::string::npos) << path;
}

}  // namespace
}  // namespace hcc::e2e

// hcc tracer end to end: real programs built through `hcc`, run with
// HCC_TRACE=1, their OTF2 archives read by the real otf2-print, and the
// Chrome/Perfetto export by hcc-report --trace-json.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "e2e_support.hpp"
#include "trace_support.hpp"

using namespace hcc::e2e;
using namespace hcc::trace_test;
namespace fs = std::filesystem;

namespace {

std::string build(const std::string &dir, const std::string &src, const std::string &flags = "") {
  const std::string exe = dir + "/" + fs::path(src).stem().string() + ".exe";
  const std::string cmd = shell_quote(hcc_bin()) + " --hcc-functions=all -O1 " + flags + " " + shell_quote(programs_dir() + "/" + src) +
                          " -o " + shell_quote(exe);
  const RunResult r = run(cmd);
  EXPECT_EQ(r.status, 0) << cmd << "\n" << r.err;
  return exe;
}

// Runs `exe` with HCC_OUTPUT_DIR=<dir>/out and the given variables.
RunResult run_in(const std::string &dir, const std::string &env, const std::string &exe) {
  return run("HCC_OUTPUT_DIR=" + shell_quote(dir + "/out") + " " + env + " " + shell_quote(exe));
}

std::vector<Event> events_of(const std::string &anchor) {
  std::string error;
  std::vector<Event> ev = read_events(anchor, &error);
  EXPECT_EQ(error, "");
  return ev;
}

nlohmann::json chrome_json(const std::string &path, const std::string &out) {
  const RunResult r = run(shell_quote(report_bin()) + " --trace-json " + shell_quote(path) + " -o " + shell_quote(out));
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(read_file(out));
}

long x_events(const nlohmann::json &j, const std::string &name) {
  long n = 0;
  for (const auto &e : j["traceEvents"]) n += e["ph"] == "X" && e["name"] == name;
  return n;
}

std::string summary(const std::string &dir) { return read_file(dir + "/out/summary.txt"); }

}  // namespace

TEST(Trace, RecursiveFibHasEveryEnterAndLeaveInOrder) {
  const std::string dir = scratch_dir("trace-fib");
  const std::string exe = build(dir, "fib.c");
  const RunResult r = run_in(dir, "HCC_TRACE=1", exe);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "fib(20) = 6765\n");
  for (const char *f : {"traces.otf2", "traces.def", "traces"}) EXPECT_TRUE(fs::exists(dir + "/out/" + f)) << f;

  const std::vector<Event> ev = events_of(dir + "/out/traces.otf2");
  const auto c = count(ev);
  EXPECT_EQ(c.at({"ENTER", "fib"}), 21891);
  EXPECT_EQ(c.at({"LEAVE", "fib"}), 21891);
  EXPECT_EQ(c.at({"ENTER", "main"}), 1);
  EXPECT_EQ(c.at({"LEAVE", "main"}), 1);
  EXPECT_EQ(ev.size(), 2u * 21892u);  // nothing else: no flush was needed
  EXPECT_EQ(check_nesting(ev), "");
  // The profile counts the same calls.
  EXPECT_EQ(Profile::load(dir + "/out").total_visits("fib"), 21891);

  // Global definitions: the regions with file and lines, one location, the clock.
  std::string error;
  std::string defs;
  for (const std::string &l : read_definitions(dir + "/out/traces.otf2", &error)) defs += l + "\n";
  EXPECT_EQ(error, "");
  EXPECT_NE(defs.find("Name: \"fib\""), std::string::npos) << defs;
  EXPECT_TRUE(std::regex_search(defs, std::regex("REGION .*\"fib\".*Paradigm: COMPILER.*File: \"[^\"]*fib.c\".*Begin: 3")))
      << defs;
  EXPECT_TRUE(std::regex_search(defs, std::regex("LOCATION +0 +Name: \"thread 0\".*# Events: 43784"))) << defs;
  EXPECT_NE(defs.find("CLOCK_PROPERTIES"), std::string::npos);

  // The summary says how big the trace is per million events.
  EXPECT_TRUE(std::regex_search(summary(dir), std::regex("Trace: +traces.otf2: 43784 events on 1 location, .* per million events")))
      << summary(dir);

  // Chrome / Perfetto: one complete event per visit.
  const nlohmann::json j = chrome_json(dir + "/out", dir + "/fib.json");
  EXPECT_EQ(x_events(j, "fib"), 21891);
  EXPECT_EQ(x_events(j, "main"), 1);
  for (const auto &e : j["traceEvents"]) {
    EXPECT_EQ(e["pid"], 0);
    if (e["ph"] == "X") EXPECT_EQ(e["tid"], 0);
  }
}

TEST(Trace, TraceAndProfileUseTheSameTimes) {
  const std::string dir = scratch_dir("trace-times");
  const std::string exe = build(dir, "fib.c");
  ASSERT_EQ(run_in(dir, "HCC_TRACE=1", exe).status, 0);
  const nlohmann::json j = chrome_json(dir + "/out/traces.otf2", dir + "/fib.json");
  double main_us = -1;
  for (const auto &e : j["traceEvents"])
    if (e["name"] == "main") main_us = e["dur"].get<double>();
  const Profile p = Profile::load(dir + "/out");
  const std::vector<int> mains = p.callpaths_where([](const std::string &n) { return n == "main"; });
  ASSERT_EQ(mains.size(), 1u);
  const double main_profile_us = p.value(mains[0], "time", "incl", 0) * 1e6;
  // The LEAVE carries the very tick the profile closes the frame at.
  EXPECT_NEAR(main_us, main_profile_us, main_profile_us * 1e-4 + 0.01);
}

TEST(Trace, SelectTracesOnlyTheChosenSubtreeButProfilesEverything) {
  const std::string dir = scratch_dir("trace-select");
  const std::string exe = build(dir, "callsvia.c");
  const RunResult r = run_in(dir, "HCC_TRACE=1 HCC_TRACE_SELECT=callsvia", exe);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<Event> ev = events_of(dir + "/out/traces.otf2");
  const auto c = count(ev);
  EXPECT_EQ(c.at({"ENTER", "nothing"}), 50);
  EXPECT_EQ(c.at({"LEAVE", "nothing"}), 50);
  EXPECT_EQ(c.at({"ENTER", "callsvia"}), 1);
  EXPECT_EQ(c.count({"ENTER", "fib"}), 0u);
  EXPECT_EQ(c.count({"ENTER", "main"}), 0u);
  EXPECT_EQ(ev.size(), 102u);
  EXPECT_EQ(check_nesting(ev), "");
  const Profile p = Profile::load(dir + "/out");
  EXPECT_EQ(p.total_visits("fib"), 21891);
  EXPECT_EQ(p.total_visits("nothing"), 51);
  EXPECT_NE(summary(dir).find("HCC_TRACE_SELECT=callsvia"), std::string::npos);
}

TEST(Trace, TinyBufferIsFlushedToDiskAndKeepsEveryEvent) {
  const std::string dir = scratch_dir("trace-flush");
  const std::string exe = build(dir, "fib.c");
  const RunResult r = run_in(dir, "HCC_TRACE=1 HCC_TRACE_BUFFER=1K", exe);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<Event> ev = events_of(dir + "/out/traces.otf2");
  const auto c = count(ev);
  EXPECT_EQ(c.at({"ENTER", "fib"}), 21891);
  EXPECT_EQ(c.at({"LEAVE", "fib"}), 21891);
  EXPECT_EQ(check_nesting(ev), "");
  // 64 records per 1 KiB buffer, 2 of them the flush's own: hundreds of
  // flushes, each one a BUFFER_FLUSH event, as many as the summary reports.
  const long flushes = c.at({"BUFFER_FLUSH", ""});
  EXPECT_GT(flushes, 600);
  std::smatch m;
  const std::string s = summary(dir);
  ASSERT_TRUE(std::regex_search(s, m, std::regex("(\\d+) flushes to disk"))) << s;
  EXPECT_EQ(std::stol(m[1]), flushes);
  EXPECT_EQ(s.find("LOST"), std::string::npos);
}

TEST(Trace, EventsThatCannotBeWrittenAreCountedAndReported) {
  const std::string dir = scratch_dir("trace-lost");
  const std::string exe = build(dir, "fib.c");
  // Buffers must spill, and the spill directory cannot be created.
  const RunResult r = run_in(dir, "TMPDIR=" + dir + "/no/such/dir HCC_TRACE=1 HCC_TRACE_BUFFER=1K", exe);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "fib(20) = 6765\n");  // the program is not affected
  EXPECT_NE(r.err.find("could not be written"), std::string::npos) << r.err;
  const std::string s = summary(dir);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(s, m, std::regex("TRACE EVENTS LOST: (\\d+) events could not be written.*; (\\d+) LEAVEs were "
                                                 "added and (\\d+) LEAVEs without their ENTER left out")))
      << s;
  const long lost = std::stol(m[1]), added = std::stol(m[2]), left_out = std::stol(m[3]);
  EXPECT_GT(lost, 40000);
  const std::vector<Event> ev = events_of(dir + "/out/traces.otf2");
  long written = 0, gaps = 0;
  for (const Event &e : ev) {
    written += e.kind == "ENTER" || e.kind == "LEAVE";
    gaps += e.kind == "MEASUREMENT_ON_OFF";
  }
  // Every one of the 43784 events is accounted for.
  EXPECT_EQ(written + lost + left_out - added, 43784);
  EXPECT_GE(gaps, 2);  // the gap is marked: measurement off, then on
  EXPECT_EQ(check_nesting(ev), "");
}

TEST(Trace, LongjmpClosesEveryFrameItSkips) {
  const std::string dir = scratch_dir("trace-jumps");
  const std::string exe = build(dir, "../../e2e/programs/jumps.c");
  ASSERT_EQ(run_in(dir, "HCC_TRACE=1", exe).status, 0);
  const std::vector<Event> ev = events_of(dir + "/out/traces.otf2");
  EXPECT_EQ(check_nesting(ev), "");
  const auto c = count(ev);
  for (const char *f : {"deep1", "deep2", "deep3"}) {
    EXPECT_EQ(c.at({"ENTER", f}), 3) << f;
    EXPECT_EQ(c.at({"LEAVE", f}), 3) << f;
  }
  EXPECT_EQ(c.at({"ENTER", "after_jump"}), 1);
}

TEST(Trace, EveryThreadIsALocation) {
  const std::string dir = scratch_dir("trace-threads");
  const std::string exe = build(dir, "threads.c", "-pthread");
  const RunResult r = run_in(dir, "HCC_TRACE=1", exe);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "610 610 144\n");
  const std::vector<Event> ev = events_of(dir + "/out/traces.otf2");
  EXPECT_EQ(check_nesting(ev), "");
  std::map<long, int> by_count;  // fib calls per location -> locations
  for (uint64_t l = 0; l < 3; ++l) ++by_count[events(ev, "ENTER", "fib", int64_t(l))];
  EXPECT_EQ(by_count, (std::map<long, int>{{465, 1}, {1973, 2}}));
  const nlohmann::json j = chrome_json(dir + "/out", dir + "/t.json");
  std::set<int> tids;
  for (const auto &e : j["traceEvents"])
    if (e["ph"] == "X") tids.insert(e["tid"].get<int>());
  EXPECT_EQ(tids, (std::set<int>{0, 1, 2}));
}

TEST(Trace, OpenMPWorkersAreLocationsStartingAtTheParallelRegion) {
  const std::string dir = scratch_dir("trace-omp");
  const std::string exe = build(dir, "omp.c", "-fopenmp");
  const RunResult r = run_in(dir, "OMP_NUM_THREADS=2 HCC_TRACE=1", exe);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "threads 2\n");
  const std::vector<Event> ev = events_of(dir + "/out/traces.otf2");
  EXPECT_EQ(check_nesting(ev), "");
  EXPECT_EQ(events(ev, "ENTER", "main", 0), 1);
  EXPECT_EQ(events(ev, "ENTER", "work", 0), 8);
  EXPECT_EQ(events(ev, "ENTER", "work", 1), 8);
  // The worker's adopted copy of main's call path is not a call of main.
  EXPECT_EQ(events(ev, "ENTER", "main", 1), 0);
  std::string first_on_worker;
  for (const Event &e : ev)
    if (e.location == 1 && e.kind == "ENTER") {
      first_on_worker = e.region;
      break;
    }
  EXPECT_NE(first_on_worker.find("parallel"), std::string::npos) << first_on_worker;
}

// Trace locations follow the profile's order (runtime/core/thread_state.hpp):
// OpenMP thread k of the outermost team is location k, a pthread that started
// before the team comes after it. Start order is random: three runs.
TEST(Trace, OpenMPThreadKIsLocationKOtherThreadsFollow) {
  const std::string dir = scratch_dir("trace-omp-numbers");
  const std::string exe = build(dir, "omp_numbers.c", "-fopenmp");
  for (int rep = 0; rep < 3; ++rep) {
    SCOPED_TRACE("run " + std::to_string(rep));
    const RunResult r = run_in(dir, "OMP_DYNAMIC=false HCC_OVERWRITE=1 HCC_TRACE=1", exe);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "sum 50 helper 42\n");
    const std::vector<Event> ev = events_of(dir + "/out/traces.otf2");
    EXPECT_EQ(check_nesting(ev), "");
    for (int l = 0; l < 4; ++l) EXPECT_EQ(events(ev, "ENTER", "tick", l), l + 1) << "location " << l;
    EXPECT_EQ(events(ev, "ENTER", "helper_work", 4), 1);
    EXPECT_EQ(events(ev, "ENTER", "tick"), 10);
  }
}

TEST(Trace, NothingIsTracedWithoutHccTrace) {
  const std::string dir = scratch_dir("trace-off");
  const std::string exe = build(dir, "fib.c");
  ASSERT_EQ(run_in(dir, "", exe).status, 0);
  EXPECT_FALSE(fs::exists(dir + "/out/traces.otf2"));
  EXPECT_FALSE(fs::exists(dir + "/out/traces"));
  EXPECT_EQ(summary(dir).find("Trace:"), std::string::npos);
}

// Like profiles, an earlier run's trace is kept: the next one goes beside it
// (traces-1.otf2 …) without a word from OTF2; HCC_OVERWRITE=1 replaces it.
TEST(Trace, ASecondRunIntoTheSameDirectoryKeepsTheFirstTrace) {
  const std::string dir = scratch_dir("trace-twice");
  const std::string exe = build(dir, "fib.c");
  for (int i = 0; i < 2; ++i) {
    const RunResult r = run_in(dir, "HCC_VERBOSE=0 HCC_TRACE=1", exe);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
  }
  for (const char *anchor : {"/out/traces.otf2", "/out/traces-1.otf2"}) {
    long fib = 0;
    for (const Event &e : events_of(dir + anchor)) fib += e.kind == "ENTER" && e.region == "fib";
    EXPECT_EQ(fib, 21891) << anchor;
  }
  EXPECT_NE(read_file(dir + "/out/summary-1.txt").find("Trace:      traces-1.otf2"), std::string::npos);
  const RunResult again = run_in(dir, "HCC_VERBOSE=0 HCC_TRACE=1 HCC_OVERWRITE=1", exe);
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(again.err, "");
  EXPECT_FALSE(fs::exists(dir + "/out/traces-2.otf2"));
}

TEST(Trace, BadSettingsAreNamedAndTheRunGoesOn) {
  const std::string dir = scratch_dir("trace-bad");
  const std::string exe = build(dir, "fib.c");
  RunResult r = run_in(dir, "HCC_TRACE=maybe", exe);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("hcc: error: HCC_TRACE='maybe' is not on, off, 1, 0, yes, no, true or false; not tracing\n"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out/traces.otf2"));
  // "On" is a switch word like 1 (config/switch_words.cpp).
  r = run_in(dir, "HCC_TRACE=On HCC_TRACE_BUFFER=lots", exe);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("hcc: error: HCC_TRACE_BUFFER='lots' is not a size from 1K to 4G (bytes, or with K, M, G); "
                       "using 4M\n"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::exists(dir + "/out/traces.otf2"));  // with the default buffer
  r = run(shell_quote(report_bin()) + " --trace-json " + shell_quote(dir + "/nothing-here"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("nothing-here"), std::string::npos) << r.err;
}

// End-to-end: HCC_METRICS with real programs built through `hcc`, counting
// software events (perf::PAGE-FAULTS …), which work without hardware
// counters. Machines where PAPI cannot count at all (no libpapi, no
// perf_event access) skip the tests that need counts, saying why.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {
namespace fs = std::filesystem;

struct Built {
  std::string dir, plain, inst;
};

Built build(const std::string &src, const std::string &flags, const std::string &name) {
  Built b;
  b.dir = scratch_dir("papi-" + name);
  const bool cxx = src.size() > 4 && src.substr(src.size() - 4) == ".cpp";
  const std::string cc = cxx ? "g++" : "gcc";
  b.plain = b.dir + "/plain";
  b.inst = b.dir + "/instrumented";
  const RunResult p = run(cc + " " + flags + " " + shell_quote(src) + " -o " + b.plain);
  EXPECT_EQ(p.status, 0) << p.err;
  const RunResult i = run(shell_quote(hcc_bin()) + " --hcc-compiler=" + cc + " " + flags + " " + shell_quote(src) +
                          " -o " + b.inst);
  EXPECT_EQ(i.status, 0) << i.err;
  return b;
}

RunResult run_with(const Built &b, const std::string &env, const std::string &profile) {
  return run("cd " + shell_quote(b.dir) + " && env HCC_OUTPUT_DIR=" + shell_quote(profile) + " HCC_VERBOSE=0 " + env +
             " " + b.inst);
}

// "" when PAPI counts here, else why not (from the runtime's own message).
std::string why_no_counters(const RunResult &r) {
  for (const char *s : {"cannot be counted:", "could not be started"})
    if (r.err.find(s) != std::string::npos) return r.err;
  return "";
}
#define SKIP_WITHOUT_COUNTERS(r)                                              \
  do {                                                                        \
    const std::string why = why_no_counters(r);                               \
    if (!why.empty()) GTEST_SKIP() << "PAPI cannot count here: " << why;      \
  } while (0)

bool has_metric(const Profile &p, const std::string &name) {
  for (const auto &m : p.json()["metrics"])
    if (m["name"] == name) return true;
  return false;
}

// Sum over locations of `kind` values of every call path whose path is `path`.
double sum(const Profile &p, const std::string &path, const std::string &metric, const std::string &kind) {
  double s = 0;
  const auto &cps = p.json()["callpaths"];
  for (std::size_t c = 0; c < cps.size(); ++c)
    if (p.path(static_cast<int>(c)) == path)
      for (const auto &v : cps[c]["values"][metric][kind]) s += v.get<double>();
  return s;
}

// For every counter metric, call path and location: exclusive ≥ 0,
// inclusive ≥ exclusive, and inclusive = exclusive + Σ children's inclusive.
void expect_counters_consistent(const Profile &p, const std::vector<std::string> &metrics) {
  const auto &cps = p.json()["callpaths"];
  std::map<int, std::vector<int>> kids;
  for (std::size_t c = 0; c < cps.size(); ++c) kids[cps[c]["parent"].get<int>()].push_back(static_cast<int>(c));
  for (const std::string &m : metrics)
    for (std::size_t c = 0; c < cps.size(); ++c)
      for (std::size_t l = 0; l < p.locations(); ++l) {
        const int ci = static_cast<int>(c), li = static_cast<int>(l);
        const double ex = p.value(ci, m, "excl", li), in = p.value(ci, m, "incl", li);
        double children = 0;
        for (int k : kids[ci]) children += p.value(k, m, "incl", li);
        EXPECT_GE(ex, 0) << m << " " << p.path(ci) << " location " << l;
        EXPECT_GE(in, ex) << m << " " << p.path(ci) << " location " << l;
        EXPECT_EQ(in, ex + children) << m << " " << p.path(ci) << " location " << l;
      }
}

std::string anchor_of(const std::string &profile_dir) {
  return run("tar -xOf " + shell_quote(profile_dir + "/profile.cubex") + " anchor.xml").out;
}

TEST(Papi, PageFaultsPerCallPath) {
  const Built b = build(programs_dir() + "/pages.c", "-O2", "pages");
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, "HCC_METRICS=perf::PAGE-FAULTS,perf::TASK-CLOCK", prof);
  SKIP_WITHOUT_COUNTERS(r);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(plain.status, 3);
  EXPECT_EQ(r.err, "");
  const Profile p = Profile::load(prof);
  ASSERT_TRUE(has_metric(p, "perf::PAGE-FAULTS"));
  ASSERT_TRUE(has_metric(p, "perf::TASK-CLOCK"));
  // 100 MiB of fresh 4 KiB pages: one fault each.
  EXPECT_GE(sum(p, "main/touch_pages", "perf::PAGE-FAULTS", "excl"), 25600);
  EXPECT_LE(sum(p, "main/touch_nothing", "perf::PAGE-FAULTS", "excl"), 5);
  EXPECT_GT(sum(p, "main/touch_nothing", "perf::TASK-CLOCK", "excl"), 0);
  EXPECT_GE(sum(p, "main", "perf::PAGE-FAULTS", "incl"), sum(p, "main/touch_pages", "perf::PAGE-FAULTS", "incl"));
  expect_counters_consistent(p, {"perf::PAGE-FAULTS", "perf::TASK-CLOCK"});

  // CUBE: named as PAPI names it, UINT64, PAPI's description, inclusive like time.
  const std::string anchor = anchor_of(prof);
  EXPECT_NE(anchor.find("<uniq_name>perf::PAGE-FAULTS</uniq_name>"), std::string::npos) << anchor;
  EXPECT_NE(anchor.find("<disp_name>perf::PAGE-FAULTS</disp_name>"), std::string::npos);
  const auto at = anchor.find("<uniq_name>perf::PAGE-FAULTS</uniq_name>");
  const std::string def = anchor.substr(at, anchor.find("</metric>", at) - at);
  EXPECT_NE(def.find("<dtype>UINT64</dtype>"), std::string::npos) << def;
  EXPECT_EQ(def.find("<descr>perf::PAGE-FAULTS</descr>"), std::string::npos) << "no description from PAPI: " << def;
  EXPECT_NE(anchor.find("hcc.papi.events"), std::string::npos);

  // summary.txt: counter columns in the flat profile.
  const std::string summary = read_file(prof + "/summary.txt");
  EXPECT_NE(summary.find("perf::PAGE-FAULTS excl"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("DERIVED METRICS"), std::string::npos) << "no inputs for derived metrics";
}

TEST(Papi, CountersArePerThread) {
  const Built b = build(programs_dir() + "/threads.cpp", "-O2 -pthread -std=c++17", "threads");
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, "HCC_METRICS=perf::PAGE-FAULTS", prof);
  SKIP_WITHOUT_COUNTERS(r);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 0);
  const Profile p = Profile::load(prof);
  ASSERT_EQ(p.locations(), 3u) << "main + 2 workers";
  // Per location: faults in worker/touch. The threads fault at the same time,
  // so process-wide counting would put the big one's faults in the small one.
  std::vector<double> per_loc(p.locations(), 0);
  const auto &cps = p.json()["callpaths"];
  for (std::size_t c = 0; c < cps.size(); ++c)
    if (p.path(static_cast<int>(c)) == "worker/touch")
      for (std::size_t l = 0; l < p.locations(); ++l)
        per_loc[l] += p.value(static_cast<int>(c), "perf::PAGE-FAULTS", "excl", static_cast<int>(l));
  std::sort(per_loc.begin(), per_loc.end());
  EXPECT_EQ(per_loc[0], 0) << "main never calls touch";
  EXPECT_GE(per_loc[1], 4 * 4 * 256) << "small thread: 4 x 4 MiB";
  EXPECT_LT(per_loc[1], 4 * 4 * 256 + 2000) << "small thread saw the big thread's faults";
  EXPECT_GE(per_loc[2], 4 * 48 * 256) << "big thread: 4 x 48 MiB";
  expect_counters_consistent(p, {"perf::PAGE-FAULTS"});
}

TEST(Papi, OpenMpWorkersAreLocationsWithTheirOwnCounters) {
  const Built b = build(programs_dir() + "/omp.c", "-O2 -fopenmp", "omp");
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, "OMP_NUM_THREADS=2 HCC_METRICS=perf::PAGE-FAULTS", prof);
  SKIP_WITHOUT_COUNTERS(r);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 0);
  const Profile p = Profile::load(prof);
  ASSERT_EQ(p.locations(), 2u);
  std::vector<double> per_loc(p.locations(), 0);
  for (int c : p.callpaths_where([](const std::string &n) { return Profile::short_name(n) == "touch"; }))
    for (std::size_t l = 0; l < p.locations(); ++l)
      per_loc[l] += p.value(c, "perf::PAGE-FAULTS", "excl", static_cast<int>(l));
  std::sort(per_loc.begin(), per_loc.end());
  EXPECT_GE(per_loc[0], 16 * 256);
  EXPECT_LT(per_loc[0], 32 * 256) << "16 MiB thread saw the other's faults";
  EXPECT_GE(per_loc[1], 32 * 256);
  expect_counters_consistent(p, {"perf::PAGE-FAULTS"});
}

// One message naming the event and what works here; the program runs as
// before, and the profile has time and visits only.
void expect_one_error_time_only(const std::string &event, const std::string &says) {
  const Built b = build(programs_dir() + "/pages.c", "-O2", "bad-" + Profile::short_name(event));
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, "HCC_METRICS=" + event + ",perf::PAGE-FAULTS", prof);
  if (r.err.find("libpapi could not be loaded") != std::string::npos) GTEST_SKIP() << r.err;
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 3);
  const std::string head = "hcc: error: HCC_METRICS: '" + event + "' " + says;
  EXPECT_EQ(r.err.rfind(head, 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  EXPECT_NE(r.err.find("; measuring time only\n"), std::string::npos) << r.err;
  if (why_no_counters(r).empty()) {
    EXPECT_NE(r.err.find("available: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("perf::PAGE-FAULTS"), std::string::npos) << "a working alternative is named: " << r.err;
  }
  const Profile p = Profile::load(prof);
  EXPECT_EQ(p.json()["metrics"].size(), 2u) << "time and visits only";
  EXPECT_EQ(p.visits("main/touch_pages"), 1);
}

TEST(Papi, UnknownEventNamedOnceRunContinues) {
  expect_one_error_time_only("PAPI_NOT_A_COUNTER", "is not a PAPI event name");
}

TEST(Papi, UnavailablePresetNamedOnceRunContinues) {
  // On a machine with hardware counters PAPI_TOT_CYC counts: nothing to test.
  {
    const Built b = build(programs_dir() + "/pages.c", "-O2", "probe-cyc");
    const RunResult r = run_with(b, "HCC_METRICS=PAPI_TOT_CYC", b.dir + "/profile");
    if (r.err.empty()) GTEST_SKIP() << "PAPI_TOT_CYC is available on this machine";
  }
  expect_one_error_time_only("PAPI_TOT_CYC", "is not available on this machine");
}

TEST(Papi, StrictStopsAtTheFirstEventWithStatusOne) {
  const Built b = build(programs_dir() + "/pages.c", "-O2", "strict");
  const std::string prof = b.dir + "/profile";
  const RunResult r = run_with(b, "HCC_METRICS_STRICT=1 HCC_METRICS=PAPI_NOT_A_COUNTER", prof);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "") << "stopped before main's body ran";
  EXPECT_EQ(r.err.rfind("hcc: error: HCC_METRICS: 'PAPI_NOT_A_COUNTER'", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("stopping (HCC_METRICS_STRICT=1)"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(prof + "/profile.cubex"));
  // Strict with good events changes nothing.
  const RunResult ok = run_with(b, "HCC_METRICS_STRICT=1 HCC_METRICS=perf::PAGE-FAULTS", prof);
  SKIP_WITHOUT_COUNTERS(ok);
  EXPECT_EQ(ok.status, 3);
  EXPECT_EQ(ok.err, "");
}

TEST(Papi, MultiplexedMetricsAreMarkedAsEstimates) {
  const Built b = build(programs_dir() + "/pages.c", "-O2", "multiplex");
  const std::string prof = b.dir + "/profile";
  const RunResult r =
      run_with(b, "HCC_METRICS_MULTIPLEX=1 HCC_METRICS=perf::PAGE-FAULTS,perf::TASK-CLOCK,perf::CONTEXT-SWITCHES", prof);
  SKIP_WITHOUT_COUNTERS(r);
  EXPECT_EQ(r.status, 3);
  const Profile p = Profile::load(prof);
  // Software events are never descheduled, so an estimate is the count.
  EXPECT_GE(sum(p, "main/touch_pages", "perf::PAGE-FAULTS", "excl"), 25600);
  const std::string anchor = anchor_of(prof);
  // perf_event's multiplexing needs a hardware event to set up; where there
  // is none (VMs like the test machines) hcc says so once and counts without.
  const std::string fallback = "hcc: warning: HCC_METRICS_MULTIPLEX=1: PAPI cannot multiplex here (";
  if (r.err.rfind(fallback, 0) == 0) {
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("; counting without multiplexing\n"), std::string::npos) << r.err;
    EXPECT_EQ(anchor.find("Estimate"), std::string::npos);
    EXPECT_NE(anchor.find("key=\"hcc.papi.multiplexed\" value=\"no\""), std::string::npos) << anchor;
    return;
  }
  EXPECT_EQ(r.err, "");
  EXPECT_NE(anchor.find("Estimate (PAPI multiplexing"), std::string::npos) << anchor;
  EXPECT_NE(anchor.find("key=\"hcc.papi.multiplexed\" value=\"yes"), std::string::npos) << anchor;
  EXPECT_NE(anchor.find("<dtype>INT64</dtype>"), std::string::npos) << anchor;
}

TEST(Papi, ExitFromDeepInsideAndForkChild) {
  const Built b = build(programs_dir() + "/deep_exit.c", "-O2", "deep-exit");
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, "HCC_METRICS=perf::PAGE-FAULTS", prof);
  SKIP_WITHOUT_COUNTERS(r);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 5);
  EXPECT_EQ(r.err, "");
  // Parent: frames still open at exit() count up to the end.
  const Profile p = Profile::load(prof);
  EXPECT_GE(sum(p, "main/outer/faulting", "perf::PAGE-FAULTS", "excl"), 32 * 256);
  EXPECT_GE(sum(p, "main", "perf::PAGE-FAULTS", "incl"), 32 * 256);
  expect_counters_consistent(p, {"perf::PAGE-FAULTS"});
  // Child: its perf_event descriptors count the parent, so it has no counts.
  std::string child;
  for (const auto &e : fs::directory_iterator(prof))
    if (e.path().filename().string().rfind("profile.fork-", 0) == 0) child = e.path().string();
  ASSERT_FALSE(child.empty()) << "the fork child wrote no profile";
  const Profile c = Profile::load(child);
  EXPECT_EQ(c.visits("main/outer/in_child/faulting"), 1);
  EXPECT_EQ(sum(c, "main/outer/in_child/faulting", "perf::PAGE-FAULTS", "incl"), 0);
  const std::string anchor = run("tar -xOf " + shell_quote(child) + " anchor.xml").out;
  EXPECT_NE(anchor.find("not counted in a fork child"), std::string::npos) << anchor;
}

// PAPI that cannot be used at all (here: a libpapi without PAPI's symbols,
// standing in for a missing library or no perf_event access) is reported
// the same way: one line, time only; strict stops.
TEST(Papi, UnusablePapiIsReportedOnceAndRunContinues) {
  const Built b = build(programs_dir() + "/pages.c", "-O2", "no-papi");
  const std::string fake = b.dir + "/fakelib";
  fs::create_directories(fake);
  const RunResult lib = run("echo 'int not_papi;' | gcc -shared -fPIC -x c - -o " + shell_quote(fake + "/libpapi.so.7.0"));
  ASSERT_EQ(lib.status, 0) << lib.err;
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, "LD_LIBRARY_PATH=" + shell_quote(fake) + " HCC_METRICS=perf::PAGE-FAULTS", prof);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err,
            "hcc: error: HCC_METRICS: 'perf::PAGE-FAULTS' cannot be counted: libpapi has no PAPI_library_init "
            "(a PAPI older than 7 is not supported); measuring time only\n");
  const Profile p = Profile::load(prof);
  EXPECT_EQ(p.json()["metrics"].size(), 2u);
  EXPECT_EQ(p.visits("main/touch_pages"), 1);
  const RunResult strict =
      run_with(b, "LD_LIBRARY_PATH=" + shell_quote(fake) + " HCC_METRICS_STRICT=1 HCC_METRICS=perf::PAGE-FAULTS", prof + "2");
  EXPECT_EQ(strict.status, 1);
  EXPECT_EQ(strict.out, "");
  EXPECT_NE(strict.err.find("stopping (HCC_METRICS_STRICT=1)"), std::string::npos) << strict.err;
}

TEST(Papi, WithoutHccMetricsOnlyTimeAndVisits) {
  const Built b = build(programs_dir() + "/pages.c", "-O2", "none");
  const std::string prof = b.dir + "/profile";
  const RunResult r = run_with(b, "", prof);
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err, "");
  const Profile p = Profile::load(prof);
  EXPECT_EQ(p.json()["metrics"].size(), 2u);
  EXPECT_EQ(anchor_of(prof).find("hcc.papi"), std::string::npos);
}

}  // namespace
}  // namespace hcc::e2e

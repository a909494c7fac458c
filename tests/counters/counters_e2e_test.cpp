// End-to-end: HCC_METRICS with real programs built through `hcc`, counting
// the kernel's software events (perf::PAGE-FAULTS …), which work without
// hardware counters, through every source: PAPI where it counts here, the
// kernel's perf_event_open directly, and "auto" on a machine whose PAPI
// cannot count (simulated with LIBPFM_FORCE_PMU=none, which disables PAPI's
// perf_event component exactly as a CPU unknown to libpfm4 does). A mode
// this machine cannot run is skipped, saying why.
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

// CTest runs the tests of this file in parallel processes: every build gets
// a directory of its own test's name.
std::string this_test() {
  const ::testing::TestInfo *t = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string n = t ? std::string(t->test_suite_name()) + "." + t->name() : "none";
  for (char &c : n)
    if (c == '/') c = '_';
  return n;
}

Built build(const std::string &src, const std::string &flags, const std::string &name) {
  Built b;
  b.dir = scratch_dir("counters-" + this_test() + "-" + name);
  const bool cxx = src.size() > 4 && src.substr(src.size() - 4) == ".cpp";
  const std::string cc = cxx ? "g++" : "gcc";
  b.plain = b.dir + "/plain";
  b.inst = b.dir + "/instrumented";
  const RunResult p = run(cc + " " + flags + " " + shell_quote(src) + " -o " + b.plain);
  EXPECT_EQ(p.status, 0) << p.err;
  const RunResult i = run(shell_quote(hcc_bin()) + " --hcc-compiler=" + cc + " --hcc-functions=all " + flags + " " + shell_quote(src) +
                          " -o " + b.inst);
  EXPECT_EQ(i.status, 0) << i.err;
  return b;
}

// How the counters are asked for: which source, and whether PAPI's
// perf_event component is disabled (what a CPU unknown to libpfm4 gives).
struct Mode {
  std::string name;  // readable in test names
  std::string env;   // added to the program's environment
};

const Mode kAuto{"auto", ""};
const Mode kPerf{"perf_event_open", "HCC_METRICS_SOURCE=perf"};
const Mode kPapi{"papi", "HCC_METRICS_SOURCE=papi"};
const Mode kPapiDisabled{"papi_component_disabled", "LIBPFM_FORCE_PMU=none"};

void PrintTo(const Mode &m, std::ostream *os) { *os << m.name; }

// What PAPI itself says on this machine, asked once through a real run.
struct PapiHere {
  bool counts = false;           // PAPI counts perf::TASK-CLOCK here
  bool can_disable = false;      // LIBPFM_FORCE_PMU=none disables its perf_event component
  std::string why_not;           // PAPI's message where it does not count
  bool kernel_counts = false;    // perf_event_open counts perf::TASK-CLOCK here
  std::string kernel_why_not;
};

// The metrics of a profile other than sampling's (on by default: samples,
// sampled_cpu, measurement_cpu): time and visits, and the counters.
std::size_t metrics_besides_sampling(const Profile &p) {
  std::size_t n = 0;
  for (const auto &m : p.json()["metrics"]) {
    const std::string name = m.value("name", m.value("uniq_name", ""));
    n += name != "samples" && name != "sampled_cpu" && name != "measurement_cpu";
  }
  return n;
}

// Unsampled unless `env` says otherwise: the counts asserted here are exact
// per call path, and sampling's handler (on by default) touches pages of its
// own the first time (a library's unwind tables: 4-5 page faults measured,
// in the code the first samples interrupted; docs/counters.md).
RunResult run_with(const Built &b, const std::string &env, const std::string &profile) {
  const std::string sampling = env.find("HCC_SAMPLING=") == std::string::npos ? "HCC_SAMPLING=off " : "";
  return run("cd " + shell_quote(b.dir) + " && env HCC_OUTPUT_DIR=" + shell_quote(profile) + " HCC_VERBOSE=0 " +
             sampling + env + " " + b.inst);
}

const PapiHere &papi_here() {
  static PapiHere *here = nullptr;
  if (here) return *here;
  here = new PapiHere;
  const Built b = build(programs_dir() + "/pages.c", "-O2", "probe-papi");
  const RunResult r = run_with(b, "HCC_METRICS_SOURCE=papi HCC_METRICS=perf::TASK-CLOCK", b.dir + "/p1");
  here->counts = r.err.empty();
  here->why_not = r.err;
  const RunResult d =
      run_with(b, "LIBPFM_FORCE_PMU=none HCC_METRICS_SOURCE=papi HCC_METRICS=perf::TASK-CLOCK", b.dir + "/p2");
  here->can_disable = d.err.find("perf_event component is disabled") != std::string::npos;
  const RunResult k = run_with(b, "HCC_METRICS_SOURCE=perf HCC_METRICS=perf::TASK-CLOCK", b.dir + "/p3");
  here->kernel_counts = k.err.empty();
  here->kernel_why_not = k.err;
  return *here;
}

// Skips a mode this machine cannot run; returns the source that must count.
std::string source_for(const Mode &m) {
  const PapiHere &p = papi_here();
  if (!p.kernel_counts && m.name != kPapi.name) return "";
  if (m.name == kPapi.name) return p.counts ? "PAPI" : "";
  if (m.name == kPapiDisabled.name) return p.can_disable ? "perf_event_open" : "";
  if (m.name == kAuto.name) return p.counts ? "PAPI" : "perf_event_open";
  return "perf_event_open";
}
#define SKIP_UNLESS_MODE_RUNS_HERE(mode, source)                                                          \
  const std::string source = source_for(mode);                                                         \
  if (source.empty())                                                                                  \
    GTEST_SKIP() << (mode.name == kPapi.name        ? "PAPI cannot count here: " + papi_here().why_not       \
                     : !papi_here().kernel_counts ? "the kernel counts nothing here: " + papi_here().kernel_why_not \
                                                  : std::string("LIBPFM_FORCE_PMU=none does not disable PAPI's "  \
                                                                "perf_event component with this libpfm4"))

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

// Exclusive page faults of call path `c`, added per location into `out`.
void add_faults(const Profile &p, int c, std::vector<double> *out) {
  for (std::size_t l = 0; l < p.locations(); ++l)
    (*out)[l] += p.value(c, "perf::PAGE-FAULTS", "excl", static_cast<int>(l));
}

// Exclusive page faults per location of every call path whose path is `path`.
std::vector<double> faults_per_location(const Profile &p, const std::string &path) {
  std::vector<double> out(p.locations(), 0);
  for (std::size_t c = 0; c < p.json()["callpaths"].size(); ++c)
    if (p.path(static_cast<int>(c)) == path) add_faults(p, static_cast<int>(c), &out);
  return out;
}

std::string attr(const std::string &anchor, const std::string &key) {
  const std::string k = "key=\"" + key + "\" value=\"";
  const auto at = anchor.find(k);
  if (at == std::string::npos) return "(no attribute " + key + ")";
  const auto b = at + k.size();
  return anchor.substr(b, anchor.find('"', b) - b);
}

// Counting tests, once per way of counting.
class Counters : public ::testing::TestWithParam<Mode> {};

TEST_P(Counters, PageFaultsExactlyOnePerPageInTheFunctionThatTouches) {
  const Mode &mode = GetParam();
  SKIP_UNLESS_MODE_RUNS_HERE(mode, source);
  const Built b = build(programs_dir() + "/pages.c", "-O2", "pages-" + mode.name);
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, mode.env + " HCC_METRICS=perf::PAGE-FAULTS,perf::TASK-CLOCK", prof);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(plain.status, 3);
  EXPECT_EQ(r.err, "");
  const Profile p = Profile::load(prof);
  ASSERT_TRUE(has_metric(p, "perf::PAGE-FAULTS"));
  ASSERT_TRUE(has_metric(p, "perf::TASK-CLOCK"));
  // 100 MiB of fresh 4 KiB pages: one fault each, and nothing else faults
  // between the function's enter and exit.
  EXPECT_EQ(sum(p, "main/touch_pages", "perf::PAGE-FAULTS", "excl"), 25600);
  EXPECT_EQ(sum(p, "main/touch_nothing", "perf::PAGE-FAULTS", "excl"), 0);
  EXPECT_GT(sum(p, "main/touch_nothing", "perf::TASK-CLOCK", "excl"), 0);
  EXPECT_GE(sum(p, "main", "perf::PAGE-FAULTS", "incl"), sum(p, "main/touch_pages", "perf::PAGE-FAULTS", "incl"));
  expect_counters_consistent(p, {"perf::PAGE-FAULTS", "perf::TASK-CLOCK"});

  // CUBE: named as PAPI names it whichever source counted, UINT64, with a
  // description that says which source counted it.
  const std::string anchor = anchor_of(prof);
  EXPECT_NE(anchor.find("<uniq_name>perf::PAGE-FAULTS</uniq_name>"), std::string::npos) << anchor;
  EXPECT_NE(anchor.find("<disp_name>perf::PAGE-FAULTS</disp_name>"), std::string::npos);
  const auto at = anchor.find("<uniq_name>perf::PAGE-FAULTS</uniq_name>");
  const std::string def = anchor.substr(at, anchor.find("</metric>", at) - at);
  EXPECT_NE(def.find("<dtype>UINT64</dtype>"), std::string::npos) << def;
  EXPECT_NE(def.find("[counted by " + source), std::string::npos) << def;
  // One unit per event whichever source counted it: the task clock in
  // nanoseconds (PAPI gives it none), page faults a count.
  EXPECT_NE(def.find("<uom>#</uom>"), std::string::npos) << def;
  const auto clock_at = anchor.find("<uniq_name>perf::TASK-CLOCK</uniq_name>");
  ASSERT_NE(clock_at, std::string::npos);
  const std::string clock_def = anchor.substr(clock_at, anchor.find("</metric>", clock_at) - clock_at);
  EXPECT_NE(clock_def.find("<uom>ns</uom>"), std::string::npos) << clock_def;
  EXPECT_EQ(attr(anchor, "hcc.metrics.events"), "perf::PAGE-FAULTS,perf::TASK-CLOCK");
  EXPECT_EQ(attr(anchor, "hcc.metrics.sources").rfind("perf::PAGE-FAULTS: " + source, 0), 0u)
      << attr(anchor, "hcc.metrics.sources");

  // summary.txt: counter columns in the flat profile.
  const std::string summary = read_file(prof + "/summary.txt");
  EXPECT_NE(summary.find("perf::PAGE-FAULTS excl"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("DERIVED METRICS"), std::string::npos) << "no inputs for derived metrics";
}

// A recursion through two functions is folded (runtime/core/fold.hpp), and
// counters are charged like time there: per event, to the function that
// ran. Each page fault lands on its own function, exactly.
TEST_P(Counters, FoldedRecursionChargesEachFunctionItsOwnFaults) {
  const Mode &mode = GetParam();
  SKIP_UNLESS_MODE_RUNS_HERE(mode, source);
  const Built b = build(programs_dir() + "/recursive_pages.c", "-O2", "recursive-pages-" + mode.name);
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, mode.env + " HCC_METRICS=perf::PAGE-FAULTS", prof);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.err, "");
  const Profile p = Profile::load(prof);
  EXPECT_EQ(p.visits("main/shade"), 32);
  EXPECT_EQ(p.visits("main/shade/bounce"), 28);
  // The runtime's own first touch of a page for a new call path may fault
  // inside a caller's share: at most a few.
  const double shade = sum(p, "main/shade", "perf::PAGE-FAULTS", "excl");
  const double bounce = sum(p, "main/shade/bounce", "perf::PAGE-FAULTS", "excl");
  EXPECT_GE(shade, 320);
  EXPECT_LE(shade, 323);
  EXPECT_GE(bounce, 840);  // counted per frame inclusively, bounce would hold 1080
  EXPECT_LE(bounce, 843);
  expect_counters_consistent(p, {"perf::PAGE-FAULTS"});
}

// The kernel loses counts in a group that mixes its software PMUs (task
// clock and page faults): a task clock read 0 for a whole short run in about
// one run of four. Each run here must count both, with exact faults.
TEST_P(Counters, TaskClockAndPageFaultsCountTogetherInEveryRun) {
  const Mode &mode = GetParam();
  SKIP_UNLESS_MODE_RUNS_HERE(mode, source);
  const Built b = build(programs_dir() + "/recursive_pages.c", "-O2", "clock-and-faults-" + mode.name);
  for (int i = 0; i < 8; ++i) {
    const std::string prof = b.dir + "/profile-" + std::to_string(i);
    const RunResult r =
        run_with(b, mode.env + " HCC_METRICS=perf::PAGE-FAULTS,perf::TASK-CLOCK", prof);
    ASSERT_EQ(r.err, "");
    const Profile p = Profile::load(prof);
    EXPECT_GT(sum(p, "main", "perf::TASK-CLOCK", "incl"), 0) << "run " << i;
    EXPECT_GE(sum(p, "main/shade/bounce", "perf::PAGE-FAULTS", "excl"), 840) << "run " << i;
    EXPECT_LE(sum(p, "main/shade/bounce", "perf::PAGE-FAULTS", "excl"), 843) << "run " << i;
  }
}

TEST_P(Counters, EachThreadCountsOnlyItsOwnFaults) {
  const Mode &mode = GetParam();
  SKIP_UNLESS_MODE_RUNS_HERE(mode, source);
  const Built b = build(programs_dir() + "/threads.cpp", "-O2 -pthread -std=c++17", "threads-" + mode.name);
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, mode.env + " HCC_METRICS=perf::PAGE-FAULTS", prof);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  const Profile p = Profile::load(prof);
  ASSERT_EQ(p.locations(), 3u) << "main + 2 workers";
  // Per location: faults in worker/touch. The threads fault at the same time,
  // so process-wide counting would put the big one's faults in the small one.
  std::vector<double> per_loc = faults_per_location(p, "worker/touch");
  std::sort(per_loc.begin(), per_loc.end());
  EXPECT_EQ(per_loc[0], 0) << "main never calls touch";
  EXPECT_EQ(per_loc[1], 4 * 4 * 256) << "small thread: 4 x 4 MiB";
  EXPECT_EQ(per_loc[2], 4 * 48 * 256) << "big thread: 4 x 48 MiB";
  expect_counters_consistent(p, {"perf::PAGE-FAULTS"});
}

TEST_P(Counters, OpenMpWorkersAreLocationsWithTheirOwnCounts) {
  const Mode &mode = GetParam();
  SKIP_UNLESS_MODE_RUNS_HERE(mode, source);
  const Built b = build(programs_dir() + "/omp.c", "-O2 -fopenmp", "omp-" + mode.name);
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, mode.env + " OMP_NUM_THREADS=2 HCC_METRICS=perf::PAGE-FAULTS", prof);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  const Profile p = Profile::load(prof);
  ASSERT_EQ(p.locations(), 2u);
  // Workers' paths start at the parallel region below main: match by the last region.
  std::vector<double> per_loc(p.locations(), 0);
  for (int c : p.callpaths_where([](const std::string &n) { return Profile::short_name(n) == "touch"; }))
    add_faults(p, c, &per_loc);
  // Thread 0 touches 16 MiB, thread 1 32 MiB.
  EXPECT_EQ(per_loc[0], 16 * 256);
  EXPECT_EQ(per_loc[1], 32 * 256);
  expect_counters_consistent(p, {"perf::PAGE-FAULTS"});
}

TEST_P(Counters, ExitFromDeepInsideAndForkChild) {
  const Mode &mode = GetParam();
  SKIP_UNLESS_MODE_RUNS_HERE(mode, source);
  const Built b = build(programs_dir() + "/deep_exit.c", "-O2", "deep-exit-" + mode.name);
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, mode.env + " HCC_METRICS=perf::PAGE-FAULTS", prof);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 5);
  EXPECT_EQ(r.err, "");
  // Parent: frames still open at exit() count up to the end.
  const Profile p = Profile::load(prof);
  EXPECT_GE(sum(p, "main/outer/faulting", "perf::PAGE-FAULTS", "excl"), 32 * 256);
  EXPECT_GE(sum(p, "main", "perf::PAGE-FAULTS", "incl"), 32 * 256);
  expect_counters_consistent(p, {"perf::PAGE-FAULTS"});
  // Child: its counters count the parent's thread, so it has no counts.
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

INSTANTIATE_TEST_SUITE_P(Sources, Counters, ::testing::Values(kAuto, kPerf, kPapi, kPapiDisabled),
                         [](const ::testing::TestParamInfo<Mode> &i) { return i.param.name; });

// One message naming the event and what works here; the program runs as
// before, and the profile has time and visits only. Returns the message.
std::string expect_one_error_time_only(const std::string &env, const std::string &event, const std::string &says) {
  const Built b = build(programs_dir() + "/pages.c", "-O2", "bad-" + Profile::short_name(event));
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, env + " HCC_METRICS=" + event + ",perf::PAGE-FAULTS", prof);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 3);
  const std::string head = "hcc: error: HCC_METRICS: '" + event + "' " + says;
  EXPECT_EQ(r.err.rfind(head, 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  EXPECT_NE(r.err.find("; measuring time only\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("available: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("perf::PAGE-FAULTS"), std::string::npos) << "a working alternative is named: " << r.err;
  const Profile p = Profile::load(prof);
  EXPECT_EQ(metrics_besides_sampling(p), 2u) << "time and visits only";
  EXPECT_EQ(p.visits("main/touch_pages"), 1);
  return r.err;
}

#define SKIP_WITHOUT_KERNEL_COUNTERS()   \
  if (!papi_here().kernel_counts) GTEST_SKIP() << "the kernel counts nothing here: " << papi_here().kernel_why_not

TEST(CounterErrors, UnknownEventIsNamedOnceAndTheRunContinues) {
  SKIP_WITHOUT_KERNEL_COUNTERS();
  expect_one_error_time_only("", "PAPI_NOT_A_COUNTER", "is not a PAPI event name");
}

TEST(CounterErrors, UnknownEventWithPapiComponentDisabled) {
  SKIP_WITHOUT_KERNEL_COUNTERS();
  if (!papi_here().can_disable) GTEST_SKIP() << "LIBPFM_FORCE_PMU=none does not disable PAPI's perf_event component here";
  expect_one_error_time_only(kPapiDisabled.env, "PAPI_NOT_A_COUNTER", "is not a PAPI event name");
}

// PAPI_TOT_CYC counts where hardware counters are exposed, through PAPI or
// (as the kernel's generic cycles event) directly: then there is nothing to test.
bool cycles_count_here() {
  const Built b = build(programs_dir() + "/pages.c", "-O2", "probe-cyc");
  return run_with(b, "HCC_METRICS=PAPI_TOT_CYC", b.dir + "/p1").err.empty() ||
         run_with(b, "HCC_METRICS_SOURCE=perf HCC_METRICS=perf::CYCLES", b.dir + "/p2").err.empty();
}

TEST(CounterErrors, PresetWithoutHardwareCountersIsNamedOnce) {
  SKIP_WITHOUT_KERNEL_COUNTERS();
  if (cycles_count_here()) GTEST_SKIP() << "PAPI_TOT_CYC is available on this machine";
  const std::string err = expect_one_error_time_only("", "PAPI_TOT_CYC", "is not available on this machine (");
  EXPECT_NE(err.find("perf_event_open: the kernel exposes no such hardware event here"), std::string::npos) << err;
}

// The machine of the report: a CPU that libpfm4 does not know. The message
// names that cause, not perf_event_paranoid (which is fine there).
TEST(CounterErrors, PresetWhenPapiComponentIsDisabledNamesTheRealCause) {
  SKIP_WITHOUT_KERNEL_COUNTERS();
  if (!papi_here().can_disable) GTEST_SKIP() << "LIBPFM_FORCE_PMU=none does not disable PAPI's perf_event component here";
  if (cycles_count_here()) GTEST_SKIP() << "cycles are counted directly on this machine";
  const std::string err =
      expect_one_error_time_only(kPapiDisabled.env, "PAPI_TOT_CYC", "is not available on this machine (");
  EXPECT_NE(err.find("PAPI cannot count here: its perf_event component is disabled (\"Error libpfm4 no PMUs found\")"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("the libpfm4 that PAPI uses does not know this CPU ("), std::string::npos) << err;
  EXPECT_EQ(err.find("perf_event_paranoid"), std::string::npos) << err;
}

TEST(CounterErrors, StrictStopsAtTheFirstEventWithStatusOne) {
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
  SKIP_WITHOUT_KERNEL_COUNTERS();
  const RunResult ok = run_with(b, "HCC_METRICS_STRICT=1 HCC_METRICS=perf::PAGE-FAULTS", prof);
  EXPECT_EQ(ok.status, 3);
  EXPECT_EQ(ok.err, "");
}

// A 16 KiB event name overflowed a buffer inside libpapi
// (PAPI_event_name_to_code) and aborted the program at its first event
// (issue 28). Names longer than PAPI_MAX_STR_LEN - 1 are refused before any
// source sees them: one line naming HCC_METRICS, the program's own output and
// status, time and visits only. Through every source choice, PAPI's included.
TEST(CounterErrors, SixteenKilobyteEventNameIsRefusedBeforeAnySourceSeesIt) {
  const Built b = build(programs_dir() + "/pages.c", "-O2", "long-name");
  const RunResult plain = run(b.plain);
  const std::string name(16 * 1024, 'A');
  for (const char *source : {"auto", "papi", "perf"}) {
    SCOPED_TRACE(source);
    const std::string prof = b.dir + "/profile-" + source;
    const RunResult r = run_with(b, "HCC_METRICS_SOURCE=" + std::string(source) + " HCC_METRICS=" + name, prof);
    EXPECT_EQ(r.status, plain.status) << r.err.substr(0, 2000);
    EXPECT_EQ(r.out, plain.out);
    EXPECT_EQ(r.err.rfind("hcc: error: HCC_METRICS: an event name of 16384 characters ('AAAA", 0), 0u)
        << r.err.substr(0, 2000);
    EXPECT_NE(r.err.find("is longer than the 127 characters an event name can have; measuring time only\n"),
              std::string::npos)
        << r.err.substr(0, 2000);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err.substr(0, 2000);
    EXPECT_LT(r.err.size(), 300u) << "the name is not repeated whole";
    const Profile p = Profile::load(prof);
    EXPECT_EQ(metrics_besides_sampling(p), 2u) << "time and visits only";
    EXPECT_EQ(p.visits("main/touch_pages"), 1);
  }
}

TEST(CounterErrors, UnknownSourceNameIsNamedAndAutoIsUsed) {
  SKIP_WITHOUT_KERNEL_COUNTERS();
  const Built b = build(programs_dir() + "/pages.c", "-O2", "bad-source");
  const RunResult r = run_with(b, "HCC_METRICS_SOURCE=likwid HCC_METRICS=perf::PAGE-FAULTS", b.dir + "/profile");
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err, "hcc: error: HCC_METRICS_SOURCE='likwid' is not auto, papi or perf; using auto\n");
  EXPECT_EQ(sum(Profile::load(b.dir + "/profile"), "main/touch_pages", "perf::PAGE-FAULTS", "excl"), 25600);
}

TEST(Papi, MultiplexedMetricsAreMarkedAsEstimates) {
  if (!papi_here().counts) GTEST_SKIP() << "PAPI cannot count here: " << papi_here().why_not;
  const Built b = build(programs_dir() + "/pages.c", "-O2", "multiplex");
  const std::string prof = b.dir + "/profile";
  const RunResult r = run_with(b,
                               "HCC_METRICS_SOURCE=papi HCC_METRICS_MULTIPLEX=1 "
                               "HCC_METRICS=perf::PAGE-FAULTS,perf::TASK-CLOCK,perf::CONTEXT-SWITCHES",
                               prof);
  EXPECT_EQ(r.status, 3);
  const Profile p = Profile::load(prof);
  // Software events are never descheduled, so an estimate is the count.
  EXPECT_EQ(sum(p, "main/touch_pages", "perf::PAGE-FAULTS", "excl"), 25600);
  const std::string anchor = anchor_of(prof);
  // perf_event's multiplexing needs a hardware event to set up; where there
  // is none (VMs like the test machines) hcc says so once and counts without.
  const std::string fallback = "hcc: warning: HCC_METRICS_MULTIPLEX=1: PAPI cannot multiplex here (";
  if (r.err.rfind(fallback, 0) == 0) {
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("; counting without multiplexing\n"), std::string::npos) << r.err;
    EXPECT_EQ(anchor.find("Estimate (PAPI multiplexing"), std::string::npos);
    EXPECT_EQ(attr(anchor, "hcc.metrics.multiplexed"), "no");
    return;
  }
  EXPECT_EQ(r.err, "");
  EXPECT_NE(anchor.find("Estimate (PAPI multiplexing"), std::string::npos) << anchor;
  EXPECT_EQ(attr(anchor, "hcc.metrics.multiplexed"), "yes: counter values are estimates");
  EXPECT_NE(anchor.find("<dtype>INT64</dtype>"), std::string::npos) << anchor;
}

// A PAPI that cannot be used at all (here: a libpapi without PAPI's symbols,
// standing in for a missing or too old library): perf:: events are counted
// directly, without a word; what only PAPI could count gets one line naming
// why, and strict stops.
TEST(Papi, UnusablePapiLeavesPerfEventsCountedDirectly) {
  SKIP_WITHOUT_KERNEL_COUNTERS();
  const Built b = build(programs_dir() + "/pages.c", "-O2", "no-papi");
  const std::string fake = b.dir + "/fakelib";
  fs::create_directories(fake);
  const RunResult lib = run("echo 'int not_papi;' | gcc -shared -fPIC -x c - -o " + shell_quote(fake + "/libpapi.so.7.0"));
  ASSERT_EQ(lib.status, 0) << lib.err;
  const std::string env = "LD_LIBRARY_PATH=" + shell_quote(fake);
  const std::string prof = b.dir + "/profile";
  const RunResult plain = run(b.plain);
  const RunResult r = run_with(b, env + " HCC_METRICS=perf::PAGE-FAULTS", prof);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err, "");
  const Profile p = Profile::load(prof);
  EXPECT_EQ(sum(p, "main/touch_pages", "perf::PAGE-FAULTS", "excl"), 25600);
  EXPECT_EQ(attr(anchor_of(prof), "hcc.metrics.sources"), "perf::PAGE-FAULTS: perf_event_open");

  const RunResult only_papi = run_with(b, env + " HCC_METRICS=PAPI_L1_DCM", prof + "2");
  EXPECT_EQ(only_papi.status, 3);
  EXPECT_EQ(only_papi.err.rfind("hcc: error: HCC_METRICS: 'PAPI_L1_DCM' is not available on this machine (libpapi has "
                                "no PAPI_library_init (a PAPI older than 7 is not supported); it is not a perf_event "
                                "event hcc counts directly (",
                                0),
            0u)
      << only_papi.err;
  EXPECT_EQ(std::count(only_papi.err.begin(), only_papi.err.end(), '\n'), 1) << only_papi.err;
  EXPECT_EQ(metrics_besides_sampling(Profile::load(prof + "2")), 2u);

  const RunResult strict = run_with(b, env + " HCC_METRICS_STRICT=1 HCC_METRICS=PAPI_L1_DCM", prof + "3");
  EXPECT_EQ(strict.status, 1);
  EXPECT_EQ(strict.out, "");
  EXPECT_NE(strict.err.find("stopping (HCC_METRICS_STRICT=1)"), std::string::npos) << strict.err;
}

TEST(CounterBasics, WithoutHccMetricsNothingButTimeAndVisits) {
  const Built b = build(programs_dir() + "/pages.c", "-O2", "none");
  const std::string prof = b.dir + "/profile";
  const RunResult r = run_with(b, "", prof);
  EXPECT_EQ(r.status, 3);
  EXPECT_EQ(r.err, "");
  const Profile p = Profile::load(prof);
  EXPECT_EQ(metrics_besides_sampling(p), 2u);
  EXPECT_EQ(anchor_of(prof).find("hcc.metrics"), std::string::npos);
}

}  // namespace
}  // namespace hcc::e2e

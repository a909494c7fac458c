// Whole-process behaviour: hcc_rt_probe (probe.cpp) is run with different
// HCC_* settings and its exit status, stderr and written files are checked.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <errno.h>
#include <sched.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "cube/cubex.hpp"
#include "test_util.hpp"

extern char **environ;
namespace fs = std::filesystem;
using tu::find_path;

namespace {

struct Outcome {
  int status = -1;
  std::string err;
  double seconds = 0;
  double cpu_seconds = 0;  // user + system, of the probe alone (wait4)
  bool exited(int code) const { return WIFEXITED(status) && WEXITSTATUS(status) == code; }
  bool killed_by(int sig) const { return WIFSIGNALED(status) && WTERMSIG(status) == sig; }
};

class Process : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / (std::string("hcc-rt-") + info->name() + "-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "cwd");
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  // Runs the probe in dir_/cwd with the test's environment minus every HCC_*
  // variable, plus `env`. `unpreempted`: at the real-time policy SCHED_FIFO,
  // priority 1, where this machine allows it (else as usual), for a run whose
  // decisions rest on wall-clock times of tiny calls: one preemption inside
  // them on a busy machine is milliseconds (tests/e2e/unpreempted.hpp). Only
  // for modes that end by themselves within a second.
  Outcome run(const std::string &mode, std::vector<std::string> env = {}, bool unpreempted = false) {
    std::vector<std::string> all;
    for (char **e = environ; *e; ++e)
      if (std::strncmp(*e, "HCC_", 4) != 0 && std::strncmp(*e, "TMPDIR=", 7) != 0) all.push_back(*e);
    all.push_back("TMPDIR=" + (dir_ / "tmp").string());
    // Unsampled unless the test says otherwise: these tests check the
    // clock's own accounting (unsampled.cpp).
    bool sampling_set = false;
    for (auto &e : env) sampling_set |= e.rfind("HCC_SAMPLING=", 0) == 0;
    if (!sampling_set) all.push_back("HCC_SAMPLING=off");
    for (auto &e : env) all.push_back(e);
    std::vector<char *> envp;
    for (auto &e : all) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string err_file = (dir_ / "stderr.txt").string();
    std::string cwd = (dir_ / "cwd").string();
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
    posix_spawn_file_actions_addopen(&fa, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string prog = HCC_PROBE;
    char *argv[] = {prog.data(), const_cast<char *>(mode.c_str()), nullptr};
    Outcome r;
    auto t0 = std::chrono::steady_clock::now();
    pid_t pid;
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    if (unpreempted) {
      sched_param fifo{};
      fifo.sched_priority = 1;
      posix_spawnattr_setschedpolicy(&attr, SCHED_FIFO);
      posix_spawnattr_setschedparam(&attr, &fifo);
      posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSCHEDULER);
    }
    int spawned = posix_spawn(&pid, prog.c_str(), &fa, &attr, argv, envp.data());
    if (spawned == EPERM && unpreempted) {  // no SCHED_FIFO here: as usual
      posix_spawnattr_setflags(&attr, 0);
      spawned = posix_spawn(&pid, prog.c_str(), &fa, &attr, argv, envp.data());
    }
    EXPECT_EQ(spawned, 0);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    rusage ru{};
    wait4(pid, &r.status, 0, &ru);
    r.cpu_seconds = double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::ifstream in(err_file);
    std::stringstream ss;
    ss << in.rdbuf();
    r.err = ss.str();
    return r;
  }

  std::string out() const { return (dir_ / "out").string(); }
  std::string out_env() const { return "HCC_OUTPUT_DIR=" + out(); }
  static bool has_line(const Outcome &r, const std::string &line) {
    return ("\n" + r.err).find("\n" + line + "\n") != std::string::npos;
  }
  static std::string attr(const hcc::profile::Profile &p, const std::string &key) {
    for (auto &[k, v] : p.attrs)
      if (k == key) return v;
    return "";
  }

  fs::path dir_;
};

TEST_F(Process, NoRegionEnteredLeavesNoTrace) {
  Outcome r = run("none", {"HCC_MAX_DEPTH=abc", "HCC_NONSENSE=1"});
  EXPECT_TRUE(r.exited(0));
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(fs::is_empty(dir_ / "cwd"));
  EXPECT_FALSE(fs::exists(dir_ / "tmp"));
}

TEST_F(Process, CallsAreWrittenWithOneLineOnStderr) {
  Outcome r = run("calls", {out_env()});
  EXPECT_TRUE(r.exited(0));
  EXPECT_EQ(r.err, "hcc: profile written to " + out() + "/profile.cubex\n");
  ASSERT_TRUE(fs::exists(out() + "/summary.txt"));
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "a", "b"})), 1.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "a", "c"})), 1.0);
  // b spins 5 ms: the calibrated clock turns ticks into real seconds.
  double b = tu::total(p, "time", find_path(p, {"probe_main", "a", "b"}));
  EXPECT_GE(b, 0.005 * 0.999);
  EXPECT_LE(tu::inclusive_total(p, "time", find_path(p, {"probe_main"})), r.seconds);
  EXPECT_EQ(attr(p, "clock"), hcc::rt::testing::clock_name());
  EXPECT_EQ(attr(p, "program"), "hcc_rt_probe");
  EXPECT_NE(attr(p, "command line").find("hcc_rt_probe calls"), std::string::npos);
  EXPECT_EQ(p.hosts.size(), 1u);
}

// The TSC rate measured over the run itself: a region that sleeps 60 ms by
// CLOCK_MONOTONIC (the probe prints what it measured inside the region)
// shows that time in the profile, neither less (the region encloses the
// probe's span) nor more than the enter/exit around it, whatever the load.
TEST_F(Process, RegionTimeAgreesWithMonotonicOverARealSpan) {
  Outcome r = run("span", {out_env(), "HCC_VERBOSE=0"});
  ASSERT_TRUE(r.exited(0)) << r.err;
  unsigned long long span_ns = 0;
  ASSERT_EQ(std::sscanf(r.err.c_str(), "span_ns %llu", &span_ns), 1) << r.err;
  ASSERT_GE(span_ns, 60000000ull);
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "a"})), 1.0);
  const double a = tu::inclusive_total(p, "time", find_path(p, {"probe_main", "a"}));
  const double span = double(span_ns) * 1e-9;
  EXPECT_GE(a, span * (1 - 1e-4)) << "clock " << attr(p, "clock description");
  // Above: the enter/exit around the probe's two reads (microseconds; 2 ms
  // for a preemption in between), and the same 1e-4 of rate.
  EXPECT_LE(a, span * (1 + 1e-4) + 0.002) << "clock " << attr(p, "clock description");
}

// An empty instrumented program (one region) does not busy-wait at start-up
// or exit for the TSC calibration, which once spun until 20 ms after start.
// CPU time (user + system, which a loaded machine does not inflate the way
// it does wall time), the least of 5 runs, against the same program with
// CLOCK_MONOTONIC, which never calibrates: at most 3 ms apart. The old spin
// cost its whole 20 ms of CPU on a quiet machine, and still several ms at
// the share of a core a loaded one gives. The TSC runs also calibrate the
// pair cost at exit (hcc.pair_cost_ns, about 0.5 ms), monotonic ones do not.
TEST_F(Process, StartAndExitDoNotBusyWaitForTheClock) {
  // Sanitized, the pair-cost calibration at exit (TSC runs only) costs
  // several ms of instrumented CPU on its own: nothing left to compare.
  if (HCC_TEST_SANITIZED) GTEST_SKIP() << "sanitized build (HCC_SANITIZE)";
  double tsc = 1e9, mono = 1e9;
  std::string clock;
  for (int i = 0; i < 5; ++i) {
    fs::remove_all(out());
    Outcome t = run("empty", {out_env(), "HCC_VERBOSE=0"});
    ASSERT_TRUE(t.exited(0)) << t.err;
    auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
    EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main"})), 1.0);
    clock = attr(p, "clock");
    tsc = std::min(tsc, t.cpu_seconds);
    Outcome m = run("empty", {out_env(), "HCC_VERBOSE=0", "HCC_CLOCK=monotonic"});
    ASSERT_TRUE(m.exited(0)) << m.err;
    mono = std::min(mono, m.cpu_seconds);
  }
  if (clock != "tsc") GTEST_SKIP() << "no usable TSC here: nothing to calibrate";
  EXPECT_LT(tsc, mono + 0.003) << "least CPU seconds: " << tsc << " with the TSC, " << mono << " with CLOCK_MONOTONIC";
  EXPECT_LT(tsc, 0.015) << "least CPU seconds of an empty instrumented program: " << tsc;
}

// libhcc does not bring the CUBE writer's libraries (libxml2, libarchive,
// ICU) into the program: libhcc_cubex.so loads them when the profile is
// written, and the profile is then written as always.
TEST_F(Process, CubeWriterLibrariesAreLoadedOnlyToWriteTheProfile) {
  Outcome r = run("libraries", {out_env()});
  EXPECT_TRUE(r.exited(0));
  EXPECT_EQ(r.err, "mapped while running:\nhcc: profile written to " + out() + "/profile.cubex\n");
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main"})), 1.0);
}

TEST_F(Process, MonotonicClockFallback) {
  Outcome r = run("calls", {out_env(), "HCC_CLOCK=monotonic", "HCC_VERBOSE=0"});
  EXPECT_TRUE(r.exited(0));
  EXPECT_EQ(r.err, "");
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  EXPECT_EQ(attr(p, "clock"), "CLOCK_MONOTONIC");
  EXPECT_GE(tu::total(p, "time", find_path(p, {"probe_main", "a", "b"})), 0.005 * 0.999);
  EXPECT_LE(tu::inclusive_total(p, "time", find_path(p, {"probe_main"})), r.seconds);
}

TEST_F(Process, BadValuesAreReportedAndTheRunGoesOn) {
  Outcome r = run("deep", {out_env(), "HCC_MAX_DEPTH=abc", "HCC_VERBOSE=7", "HCC_MAXDEPTH=3"});
  EXPECT_TRUE(r.exited(0));
  EXPECT_TRUE(has_line(r, "hcc: error: HCC_MAX_DEPTH='abc' is not a positive integer; using 1024")) << r.err;
  EXPECT_TRUE(has_line(r, "hcc: error: HCC_VERBOSE='7' is not 0, 1 or 2; using 1")) << r.err;
  EXPECT_TRUE(has_line(r, "hcc: warning: unknown environment variable HCC_MAXDEPTH ignored (did you mean "
                          "HCC_MAX_DEPTH?)"))
      << r.err;
  EXPECT_TRUE(has_line(r, "hcc: profile written to " + out() + "/profile.cubex")) << r.err;
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  // 1024 applies, not 3: all 20 recursive calls are recorded (folded into
  // one call path) and nothing is cut.
  const int rec = find_path(p, {"probe_main", "rec"});
  ASSERT_GE(rec, 0);
  EXPECT_EQ(tu::total(p, "visits", rec), 20.0);
  EXPECT_EQ(tu::total(p, "recursion_depth", rec), 20.0);
  EXPECT_TRUE(tu::children(p, rec).empty());
}

TEST_F(Process, MaxDepthFromTheEnvironment) {
  Outcome r = run("deep", {out_env(), "HCC_MAX_DEPTH=3"});
  EXPECT_TRUE(r.exited(0)) << r.err;
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  // probe_main, rec, rec (folded into the first): the third open frame is
  // the artificial node, below the one call path of rec.
  int cut = find_path(p, {"probe_main", "rec", "[depth limit HCC_MAX_DEPTH=3 reached]"});
  ASSERT_GE(cut, 0);
  EXPECT_EQ(tu::total(p, "visits", cut), 1.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "rec"})), 2.0);
  EXPECT_EQ(attr(p, "calls below the depth limit"), "17");  // rec 4..20
}

// Selective measurement inside a folded recursion (a -> b -> a ..., each
// calling c): HCC_THROTTLE disables c while frames are open in recursion
// mode (a and b take 20 us a call and stay); HCC_SELECT=b records from the first b down, folded; HCC_PRUNE=b
// records b but nothing below it.
TEST_F(Process, SelectionInsideAFoldedRecursion) {
  const auto times_sane = [](const hcc::profile::Profile &p) {
    for (size_t c = 0; c < p.cnodes.size(); ++c) EXPECT_GE(tu::total(p, "time", int(c)), -1e-12) << c;
  };
  // Unpreempted: c's first 100 calls take about 10 us in all, and one
  // preemption inside them (2 CPU hogs) made its mean 10 us or more.
  Outcome r = run("pingpong", {out_env(), "HCC_THROTTLE=100:10", "HCC_VERBOSE=0"}, /*unpreempted=*/true);
  EXPECT_TRUE(r.exited(0)) << r.err;
  EXPECT_EQ(r.err, "");
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "a"})), 1000.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "a", "b"})), 800.0);
  // c: timed for 100 calls, then throttled; every visit is still counted
  // on its call path (1000 under a, 800 under b).
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "a", "c"})) +
                tu::total(p, "visits", find_path(p, {"probe_main", "a", "b", "c"})),
            1800.0);
  EXPECT_NE(attr(p, "hcc.throttled").find("c (after 100 calls"), std::string::npos) << attr(p, "hcc.throttled");
  times_sane(p);

  fs::remove_all(out());
  r = run("pingpong", {out_env(), "HCC_SELECT=b", "HCC_VERBOSE=0"});
  EXPECT_TRUE(r.exited(0)) << r.err;
  p = hcc::profile::read_cubex(out() + "/profile.cubex");
  // The first b of each recursion is a root; every a and b below it folds.
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"b"})), 800.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"b", "a"})), 800.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"b", "c"})) + tu::total(p, "visits", find_path(p, {"b", "a", "c"})),
            1600.0);
  EXPECT_EQ(find_path(p, {"probe_main"}), -1);
  times_sane(p);

  fs::remove_all(out());
  r = run("pingpong", {out_env(), "HCC_PRUNE=b", "HCC_VERBOSE=0"});
  EXPECT_TRUE(r.exited(0)) << r.err;
  p = hcc::profile::read_cubex(out() + "/profile.cubex");
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "a"})), 200.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "a", "b"})), 200.0);
  EXPECT_TRUE(tu::children(p, find_path(p, {"probe_main", "a", "b"})).empty());
  times_sane(p);
}

TEST_F(Process, DefaultDirectoryIsNewForEveryRun) {
  // Occupy the names of the next seconds: the run must add a suffix.
  time_t now = time(nullptr);
  std::vector<std::string> taken;
  for (int s = 0; s < 30; ++s) {
    char stamp[32];
    time_t t = now + s;
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
    taken.push_back(std::string("hcc-hcc_rt_probe-") + stamp);
    fs::create_directory(dir_ / "cwd" / taken.back());
  }
  Outcome r1 = run("calls");
  Outcome r2 = run("calls");
  // The message names the directory with its full path.
  std::regex line("hcc: profile written to (.*)/(hcc-hcc_rt_probe-[0-9]{8}_[0-9]{6}-[0-9]+)/profile.cubex\n");
  std::smatch m1, m2;
  ASSERT_TRUE(std::regex_match(r1.err, m1, line)) << r1.err;
  ASSERT_TRUE(std::regex_match(r2.err, m2, line)) << r2.err;
  EXPECT_NE(m1[2].str(), m2[2].str());
  for (auto *m : {&m1, &m2}) {
    EXPECT_EQ(fs::path((*m)[1].str()), dir_ / "cwd");
    EXPECT_TRUE(fs::exists(dir_ / "cwd" / (*m)[2].str() / "profile.cubex"));
    EXPECT_TRUE(fs::exists(dir_ / "cwd" / (*m)[2].str() / "summary.txt"));
  }
  for (auto &t : taken) EXPECT_TRUE(fs::is_empty(dir_ / "cwd" / t)) << t << " was reused";
}

// Three programs run one after another into one HCC_OUTPUT_DIR: each
// profile survives, the later ones beside the first, and the user is told.
TEST_F(Process, AnEarlierRunsProfileIsKeptAndTheNextGoesBesideIt) {
  fs::create_directories(out());
  std::ofstream(out() + "/profile.cubex") << "old";
  std::ofstream(out() + "/summary.txt") << "old";
  auto content = [](const std::string &path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  Outcome r1 = run("calls", {out_env()});
  EXPECT_TRUE(r1.exited(0));
  EXPECT_TRUE(has_line(r1, "hcc: profile written to " + out() + "/profile-1.cubex")) << r1.err;
  EXPECT_TRUE(has_line(r1, "hcc: " + out() +
                               " already held profile.cubex or summary.txt of an earlier run: kept them, this run's "
                               "profile went beside them (HCC_OVERWRITE=1 replaces them instead)"))
      << r1.err;
  EXPECT_EQ(content(out() + "/profile.cubex"), "old");
  EXPECT_EQ(content(out() + "/summary.txt"), "old");
  auto p1 = hcc::profile::read_cubex(out() + "/profile-1.cubex");
  EXPECT_EQ(tu::total(p1, "visits", find_path(p1, {"probe_main", "a", "b"})), 1.0);
  EXPECT_NE(content(out() + "/summary-1.txt").find("probe_main"), std::string::npos);

  Outcome r2 = run("calls", {out_env(), "HCC_VERBOSE=0"});
  EXPECT_TRUE(r2.exited(0));
  EXPECT_EQ(r2.err, "");  // quiet is quiet, also about the new name
  EXPECT_NO_THROW(hcc::profile::read_cubex(out() + "/profile-2.cubex"));
  std::set<std::string> names;
  for (auto &e : fs::directory_iterator(out())) names.insert(e.path().filename().string());
  // No temporary file is left behind.
  EXPECT_EQ(names, (std::set<std::string>{"profile.cubex", "summary.txt", "profile-1.cubex", "summary-1.txt",
                                          "profile-2.cubex", "summary-2.txt"}));

  // HCC_OVERWRITE=1: the plain names are replaced, nothing is added.
  Outcome r3 = run("calls", {out_env(), "HCC_OVERWRITE=1"});
  EXPECT_TRUE(r3.exited(0));
  EXPECT_EQ(r3.err, "hcc: profile written to " + out() + "/profile.cubex\n");
  EXPECT_NO_THROW(hcc::profile::read_cubex(out() + "/profile.cubex"));
  EXPECT_NE(content(out() + "/summary.txt"), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(out()), fs::directory_iterator()), 6);
}

TEST_F(Process, UnwritableDirectoryFallsBackToTmpdir) {
  Outcome r = run("calls", {"HCC_OUTPUT_DIR=/proc/hcc-no-such/out", "HCC_VERBOSE=0"});
  EXPECT_TRUE(r.exited(0));
  EXPECT_NE(r.err.find("hcc: error: cannot create output directory '/proc/hcc-no-such/out': "), std::string::npos)
      << r.err;
  std::regex line("hcc: profile written to fallback directory instead: (.*)/profile.cubex");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, line)) << r.err;
  EXPECT_EQ(fs::path(m[1].str()).parent_path(), dir_ / "tmp");
  EXPECT_NO_THROW(hcc::profile::read_cubex(m[1].str() + "/profile.cubex"));
}

// Issue 18: a symbolic link planted by someone else at the output directory
// is refused with a clear error, nothing is written through it, and the
// profile goes to the fallback directory. A link of the user's own is followed.
TEST_F(Process, PlantedLinkAtTheOutputDirectoryIsRefused) {
  fs::create_directories(dir_ / "victim");
  fs::create_directories(dir_ / "mine");
  fs::create_directories(dir_ / "shared");
  fs::permissions(dir_ / "shared", fs::perms::all | fs::perms::sticky_bit);
  fs::create_directory_symlink(dir_ / "mine", dir_ / "shared" / "my-link");
  Outcome own = run("calls", {"HCC_OUTPUT_DIR=" + (dir_ / "shared" / "my-link").string()});
  EXPECT_TRUE(own.exited(0));
  EXPECT_TRUE(fs::exists(dir_ / "mine" / "profile.cubex")) << own.err;

  const fs::path planted = dir_ / "shared" / "out";
  fs::create_directory_symlink(dir_ / "victim", planted);
  if (::lchown(planted.c_str(), 65534, 65534) != 0)
    GTEST_SKIP() << "cannot give the link another owner (not root): the refusal is tested as root";
  Outcome r = run("calls", {"HCC_OUTPUT_DIR=" + planted.string(), "HCC_VERBOSE=0"});
  EXPECT_TRUE(r.exited(0));
  EXPECT_NE(r.err.find("hcc: error: cannot create output directory '" + planted.string() + "': '" + planted.string() +
                       "' is a symbolic link owned by uid 65534, neither you nor the owner of its directory: refusing "
                       "to follow it"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::is_empty(dir_ / "victim"));
  EXPECT_NE(r.err.find("hcc: profile written to fallback directory instead: " + (dir_ / "tmp").string() + "/"),
            std::string::npos)
      << r.err;
  // The same link further up the path is refused too.
  Outcome deeper = run("calls", {"HCC_OUTPUT_DIR=" + (planted / "sub").string(), "HCC_VERBOSE=0"});
  EXPECT_NE(deeper.err.find("is a symbolic link owned by uid 65534"), std::string::npos) << deeper.err;
  EXPECT_TRUE(fs::is_empty(dir_ / "victim"));
}

// A link planted at the fallback directory's predictable name in a shared
// $TMPDIR is skipped: the profile goes into a new directory beside it.
TEST_F(Process, PlantedLinkAtTheFallbackNameIsNotWrittenThrough) {
  fs::create_directories(dir_ / "victim");
  fs::create_directories(dir_ / "tmp");
  const time_t now = time(nullptr);
  for (time_t t = now - 2; t <= now + 30; ++t) {
    char stamp[32];
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
    fs::create_directory_symlink(dir_ / "victim", dir_ / "tmp" / ("hcc-hcc_rt_probe-" + std::string(stamp)));
  }
  Outcome r = run("calls", {"HCC_OUTPUT_DIR=/proc/hcc-no-such/out", "HCC_VERBOSE=0"});
  EXPECT_TRUE(r.exited(0));
  std::regex line("hcc: profile written to fallback directory instead: (.*)/profile.cubex");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, line)) << r.err;
  EXPECT_EQ(fs::path(m[1].str()).parent_path(), dir_ / "tmp");
  EXPECT_FALSE(fs::is_symlink(m[1].str()));
  EXPECT_TRUE(std::regex_search(m[1].str(), std::regex("-1$"))) << m[1].str();
  EXPECT_NO_THROW(hcc::profile::read_cubex(m[1].str() + "/profile.cubex"));
  EXPECT_TRUE(fs::is_empty(dir_ / "victim"));
}

// Directories and files are created with the user's umask (0777 / 0666 less it).
TEST_F(Process, OutputFollowsTheUmask) {
  const mode_t old = ::umask(002);
  Outcome r = run("calls", {out_env()});
  ::umask(old);
  EXPECT_TRUE(r.exited(0));
  struct stat st;
  ASSERT_EQ(::stat(out().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0775u);
  ASSERT_EQ(::stat((out() + "/profile.cubex").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0664u);
  ASSERT_EQ(::stat((out() + "/summary.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0664u);
}

TEST_F(Process, VerboseLevels) {
  Outcome quiet = run("calls", {out_env(), "HCC_VERBOSE=0"});
  EXPECT_EQ(quiet.err, "");
  EXPECT_TRUE(fs::exists(out() + "/profile.cubex"));
  Outcome loud = run("calls", {"HCC_OUTPUT_DIR=" + out() + "2", "HCC_VERBOSE=2"});
  EXPECT_TRUE(has_line(loud, "hcc: profile written to " + out() + "2/profile.cubex")) << loud.err;
  EXPECT_NE(loud.err.find("1 thread(s)"), std::string::npos) << loud.err;
  EXPECT_NE(loud.err.find("clock "), std::string::npos) << loud.err;
}

TEST_F(Process, ExitDeepInsideKeepsStatusAndWritesTheProfile) {
  Outcome r = run("exit", {out_env()});
  EXPECT_TRUE(r.exited(3)) << r.status;
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  int b = find_path(p, {"probe_main", "a", "b"});
  EXPECT_EQ(tu::total(p, "visits", b), 1.0);
  EXPECT_GT(tu::total(p, "time", b), 0.0);  // closed at finalize
}

TEST_F(Process, StaticDestructorsAndAtexitHandlersAreMeasured) {
  Outcome r = run("static", {out_env()});
  EXPECT_TRUE(r.exited(0));
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"static_dtor"})), 1.0);
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"atexit_handler"})), 1.0);
}

TEST_F(Process, UncaughtExceptionWritesTheProfileThenAborts) {
  Outcome r = run("throw", {out_env()});
  EXPECT_TRUE(r.killed_by(SIGABRT)) << r.status;
  EXPECT_NE(r.err.find("terminate called"), std::string::npos) << r.err;  // the previous handler ran
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "thrower"})), 1.0);
}

TEST_F(Process, FatalSignalWritesTheProfileThenDies) {
  Outcome r = run("segv", {out_env()});
  EXPECT_TRUE(r.killed_by(SIGSEGV)) << r.status;
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  EXPECT_EQ(tu::total(p, "visits", find_path(p, {"probe_main", "faulter"})), 1.0);

  Outcome i = run("sigint", {"HCC_OUTPUT_DIR=" + out() + "2"});
  EXPECT_TRUE(i.killed_by(SIGINT)) << i.status;
  EXPECT_TRUE(fs::exists(out() + "2/profile.cubex"));
}

TEST_F(Process, SignalHandlersCanBeSwitchedOff) {
  Outcome r = run("segv", {out_env(), "HCC_SIGNALS=0"});
  EXPECT_TRUE(r.killed_by(SIGSEGV));
  EXPECT_FALSE(fs::exists(out() + "/profile.cubex"));
}

TEST_F(Process, AHandlerTheProgramInstalledIsKept) {
  Outcome r = run("own_handler", {out_env()});
  EXPECT_TRUE(r.exited(7)) << r.status;
  EXPECT_EQ(r.err, "own handler\n");
  EXPECT_FALSE(fs::exists(out() + "/profile.cubex"));
}

TEST_F(Process, ExtraMetricsAppearAfterTimeAndVisits) {
  Outcome r = run("extra", {out_env()});
  ASSERT_TRUE(r.exited(0)) << r.status << r.err;
  auto p = hcc::profile::read_cubex(out() + "/profile.cubex");
  ASSERT_EQ(p.metrics.size(), 3u);
  EXPECT_EQ(p.metrics[2].uniq_name, "test_counter");
  EXPECT_EQ(tu::total(p, "test_counter", find_path(p, {"probe_main", "a"})), 6.0);  // 10 minus b's 4
  EXPECT_EQ(tu::total(p, "test_counter", find_path(p, {"probe_main", "a", "b"})), 4.0);
}

}  // namespace

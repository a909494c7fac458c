// Instrumentation plans end to end (docs/selective-instrumentation.md,
// "Plans"): programs built through the real hcc, run, planned with the real
// hcc-report --plan, rebuilt with the plan beside the sources, run again.
//   - the plan names the hot tiny function, not the kernel nor main;
//   - the rebuilt program has no region for it, the kernel's visits are
//     exact, the output is the same; --hcc-verbose prints the decision;
//   - the saving the plan predicts is what the next run saves (CPU time);
//   - a COUNT line (the budget's) counts the kernel: exact visits, no clock;
//   - HCC_PLAN=off ignores it, HCC_PLAN=FILE names one and combines with
//     --hcc-filter, a changed plan is not served from the cache;
//   - a plan writable by others, or another user's, is refused naming it.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../support/other_user.hpp"
#include "e2e_support.hpp"
#include "unpreempted.hpp"

namespace hcc::e2e {
namespace {

const std::string kSource = std::string(HCC_FILTER_PROGRAMS) + "/plan_hot.cpp";

void write(const std::string &path, const std::string &text) {
  std::ofstream f(path);
  f << text;
  ASSERT_TRUE(f.flush()) << path;
}

// Copies the program into `dir` (the plan goes beside it) and builds it
// there with hcc's defaults (--hcc-functions=auto) and `env`/`opts`.
RunResult build(const std::string &dir, const std::string &exe, const std::string &env = "",
                const std::string &opts = "") {
  std::filesystem::copy_file(kSource, dir + "/plan_hot.cpp", std::filesystem::copy_options::overwrite_existing);
  return run("cd " + shell_quote(dir) + " && env " + env + " " + shell_quote(hcc_bin()) + " " + opts +
             " -O2 plan_hot.cpp -o " + exe);
}

// Runs dir/exe with N calls of mix, its profile in dir/out-<tag>.
RunResult run_prog(const std::string &dir, const std::string &exe, const std::string &tag, long n,
                   const std::string &prefix = "") {
  return run("cd " + shell_quote(dir) + " && env HCC_VERBOSE=0 HCC_OVERWRITE=1 HCC_OUTPUT_DIR=out-" + tag + " " +
             prefix + "./" + exe + " " + std::to_string(n));
}

// The CPU time (user + system) of `cmd` and everything it waited for.
double cpu_seconds_of(const std::string &cmd, RunResult &r) {
  auto children = [] {
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  };
  const double before = children();
  r = run(cmd);
  return children() - before;
}

// A fresh directory with run 1's profile (default build) and its plan
// written beside the sources as hcc.plan.
class Plan : public testing::Test {
 protected:
  void make(const std::string &name, long n) {
    dir_ = scratch_dir(name);
    const RunResult b = build(dir_, "app1");
    ASSERT_EQ(b.status, 0) << b.err;
    // Unpreempted: on a busy machine a run's wall-clock times hold other
    // processes' slices (the pathtracer test in filter_e2e_test.cpp says more).
    // Every visit of mix counted (HCC_COUNT_STOP=off): the tests below read
    // run 1's exact visits and the evidence of a counted mix; a plan from a
    // stopped count is checked in PlanNumbers (tests/report) and
    // ARunRefreshesThePlanItNamesAtExit.
    const RunResult r1 = run_prog(dir_, "app1", "1", n, "HCC_COUNT_STOP=off " + unpreempted(60));
    ASSERT_EQ(r1.status, 0) << r1.err;
    out1_ = r1.out;
    const RunResult p = run(shell_quote(report_bin()) + " --plan " + shell_quote(dir_ + "/out-1") + " -o " +
                            shell_quote(dir_ + "/hcc.plan"));
    ASSERT_EQ(p.status, 0) << p.err;
    plan_ = read_file(dir_ + "/hcc.plan");
  }
  std::string dir_, out1_, plan_;
};

TEST_F(Plan, NamesTheHotTinyFunctionNotTheKernelNorMain) {
  make("plan-names", 2000000);
  EXPECT_NE(plan_.find("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE MANGLED _Z3mixjj\nSCOREP_REGION_NAMES_END\n"),
            std::string::npos)
      << plan_;
  // The evidence: calls, time per call, the cost of measuring it, the run.
  EXPECT_NE(plan_.find("# left out mix(unsigned int, unsigned int): "), std::string::npos) << plan_;
  // Throttled in run 1 (a busy machine makes the throttle act sooner), its
  // time came from samples and the evidence says so.
  const std::string tail = " over 2 M calls in " + dir_ + "/out-1/profile.cubex; measuring it costs ";
  EXPECT_TRUE(plan_.find(" ns per call" + tail) != std::string::npos ||
              plan_.find(" ns per call (time from samples)" + tail) != std::string::npos)
      << plan_;
  for (const char *kept : {"kernel", "main", "accumulate"})
    EXPECT_EQ(plan_.find(std::string("# left out ") + kept), std::string::npos) << kept << "\n" << plan_;
}

// The plan beside the sources leaves mix out of the next build: no region,
// the kernel's 1000 visits and accumulate's one exact, the same output.
TEST_F(Plan, ABuildBesideThePlanLeavesTheFunctionOutAndSaysWhy) {
  make("plan-apply", 2000000);
  const RunResult b = build(dir_, "app2", "", "--hcc-verbose");
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.err.find("hcc: plan hcc.plan: left out mix(unsigned int, unsigned int): "), std::string::npos)
      << b.err;
  const RunResult r2 = run_prog(dir_, "app2", "2", 2000000);
  ASSERT_EQ(r2.status, 0) << r2.err;
  EXPECT_EQ(r2.out, out1_);
  const Profile before = Profile::load(dir_ + "/out-1"), after = Profile::load(dir_ + "/out-2");
  EXPECT_EQ(before.total_visits("mix"), 2000000);
  EXPECT_EQ(after.total_visits("mix"), 0);
  EXPECT_EQ(after.visits("main/kernel"), 1000);
  EXPECT_EQ(after.visits("main/accumulate"), 1);
  for (const std::string &path : after.paths()) EXPECT_EQ(path.find("mix"), std::string::npos) << path;
}

// A plan's COUNT line (what the budget writes for work it stops timing;
// which regions it picks is checked on exact numbers in
// tests/report/suggest_filter_test.cpp, as real timings would make the
// choice depend on the machine): the build applies it and prints its
// "# counted" line, and the next run has the kernel's 1000 visits exactly,
// its time marked as from samples (no clock), with the same output.
TEST_F(Plan, ACountLineCountsTheKernelWithExactVisitsAndSaysWhy) {
  dir_ = scratch_dir("plan-count");
  ASSERT_EQ(build(dir_, "app1").status, 0);
  const RunResult r1 = run_prog(dir_, "app1", "1", 200000);
  ASSERT_EQ(r1.status, 0) << r1.err;
  write(dir_ + "/hcc.plan",
        "# counted kernel(const std::vector<double> &, double): 200 us per call over 1000 calls; over the budget\n"
        "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE MANGLED _Z3mixjj\n  COUNT MANGLED _Z6kernelRKSt6vectorIdSaIdEEd\n"
        "SCOREP_REGION_NAMES_END\n");
  ASSERT_EQ(::chmod((dir_ + "/hcc.plan").c_str(), 0644), 0);
  const RunResult b = build(dir_, "app2", "", "--hcc-verbose");
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.err.find("hcc: plan hcc.plan: counted kernel(const std::vector<double> &, double): 200 us"),
            std::string::npos)
      << b.err;
  const RunResult r2 = run_prog(dir_, "app2", "2", 200000);
  ASSERT_EQ(r2.status, 0) << r2.err;
  EXPECT_EQ(r2.out, r1.out);
  const Profile after = Profile::load(dir_ + "/out-2");
  EXPECT_EQ(after.visits("main/kernel"), 1000);
  EXPECT_EQ(after.visits("main/accumulate"), 1);
  EXPECT_EQ(after.total_visits("mix"), 0);
  const RunResult flat = run(shell_quote(report_bin()) + " " + shell_quote(dir_ + "/out-2"));
  ASSERT_EQ(flat.status, 0) << flat.err;
  // Its time is its samples' (no clock): marked `~` (text_views/marks.hpp).
  bool shown = false;
  std::istringstream lines(flat.out);
  for (std::string line; std::getline(lines, line);)
    shown = shown || (line.find("  ~") != std::string::npos && line.find("kernel(") != std::string::npos);
  EXPECT_TRUE(shown) << flat.out;
}

// HCC_PLAN=off ignores the plan beside the sources; HCC_PLAN=FILE names a
// plan elsewhere, and --hcc-filter applies with it.
TEST_F(Plan, OffIgnoresItAndAnExplicitPlanCombinesWithAFilter) {
  make("plan-env", 2000000);
  ASSERT_NE(plan_.find("EXCLUDE MANGLED _Z3mixjj"), std::string::npos) << plan_;
  RunResult b = build(dir_, "app-off", "HCC_PLAN=off", "--hcc-verbose");
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(b.err.find("hcc: plan "), std::string::npos) << b.err;
  ASSERT_EQ(run_prog(dir_, "app-off", "off", 3000).status, 0);
  EXPECT_EQ(Profile::load(dir_ + "/out-off").total_visits("mix"), 3000);

  const std::string other = scratch_dir("plan-env-elsewhere");
  std::filesystem::rename(dir_ + "/hcc.plan", other + "/mine.plan");
  write(dir_ + "/kernel.filter", "exclude kernel*\n");
  b = build(dir_, "app-named", "HCC_PLAN=" + shell_quote(other + "/mine.plan"), "--hcc-filter=kernel.filter");
  ASSERT_EQ(b.status, 0) << b.err;
  ASSERT_EQ(run_prog(dir_, "app-named", "named", 3000).status, 0);
  const Profile p = Profile::load(dir_ + "/out-named");
  EXPECT_EQ(p.total_visits("mix"), 0);
  EXPECT_EQ(p.total_visits("kernel"), 0);
  EXPECT_EQ(p.visits("main/accumulate"), 1);

  // A plan HCC_PLAN names must be there.
  b = build(dir_, "app-missing", "HCC_PLAN=" + shell_quote(other + "/none.plan"));
  EXPECT_NE(b.status, 0);
  EXPECT_NE(b.err.find("hcc: error: plan " + other + "/none.plan: cannot open it: No such file or directory"),
            std::string::npos)
      << b.err;
}

// The plan's text is part of the instrumentation cache's key: the same
// source rebuilt with an emptied plan measures mix again.
TEST_F(Plan, AChangedPlanIsNotServedFromTheCache) {
  make("plan-cache", 2000000);
  ASSERT_EQ(build(dir_, "app-a").status, 0);
  ASSERT_EQ(run_prog(dir_, "app-a", "a", 3000).status, 0);
  EXPECT_EQ(Profile::load(dir_ + "/out-a").total_visits("mix"), 0);
  write(dir_ + "/hcc.plan", "SCOREP_REGION_NAMES_BEGIN\nSCOREP_REGION_NAMES_END\n");
  ASSERT_EQ(build(dir_, "app-b").status, 0);
  ASSERT_EQ(run_prog(dir_, "app-b", "b", 3000).status, 0);
  EXPECT_EQ(Profile::load(dir_ + "/out-b").total_visits("mix"), 3000);
}

TEST_F(Plan, APlanOthersMayWriteIsRefusedNamingIt) {
  make("plan-writable", 2000000);
  ASSERT_EQ(::chmod((dir_ + "/hcc.plan").c_str(), 0664), 0);
  const RunResult b = build(dir_, "app-w");
  EXPECT_EQ(b.status, 1);
  EXPECT_NE(b.err.find("hcc: error: plan hcc.plan refused: writable by group or others"), std::string::npos)
      << b.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/app-w"));
}

TEST_F(Plan, AnotherUsersPlanIsRefusedNamingIt) {
  std::string why;
  const uid_t other = hcc::test::other_user(why);
  if (other == static_cast<uid_t>(-1)) GTEST_SKIP() << why;
  make("plan-other-user", 2000000);
  ASSERT_EQ(::lchown((dir_ + "/hcc.plan").c_str(), other, other), 0);
  const RunResult b = build(dir_, "app-o");
  EXPECT_EQ(b.status, 1);
  EXPECT_NE(b.err.find("hcc: error: plan hcc.plan refused: owned by uid " + std::to_string(other)),
            std::string::npos)
      << b.err;
}

// HCC_PLAN_UPDATE=FILE: the run writes the plan itself at exit, replacing
// what was there (a symbolic link planted at its name is replaced, never
// written through); a directory others may write is refused.
TEST_F(Plan, ARunRefreshesThePlanItNamesAtExit) {
  dir_ = scratch_dir("plan-update");
  ASSERT_EQ(build(dir_, "app1").status, 0);
  write(dir_ + "/elsewhere", "unchanged\n");
  ASSERT_EQ(::symlink("elsewhere", (dir_ + "/hcc.plan").c_str()), 0);
  RunResult r = run_prog(dir_, "app1", "u1", 2000000, "HCC_PLAN_UPDATE=hcc.plan " + unpreempted(60));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_file(dir_ + "/elsewhere"), "unchanged\n");
  struct stat st;
  ASSERT_EQ(::lstat((dir_ + "/hcc.plan").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(st.st_mode & 022, 0u);
  std::string plan = read_file(dir_ + "/hcc.plan");
  EXPECT_NE(plan.find("from " + dir_ + "/out-u1/profile.cubex\n"), std::string::npos) << plan;
  EXPECT_NE(plan.find("  EXCLUDE MANGLED _Z3mixjj\n"), std::string::npos) << plan;
  // The next build applies it; the run after refreshes it from its own profile.
  ASSERT_EQ(build(dir_, "app2").status, 0);
  r = run_prog(dir_, "app2", "u2", 2000000, "HCC_PLAN_UPDATE=hcc.plan ");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Profile::load(dir_ + "/out-u2").total_visits("mix"), 0);
  plan = read_file(dir_ + "/hcc.plan");
  EXPECT_NE(plan.find("from " + dir_ + "/out-u2/profile.cubex\n"), std::string::npos) << plan;

  ASSERT_EQ(::chmod(dir_.c_str(), 0777), 0);
  r = run_prog(dir_, "app2", "u3", 1000, "HCC_PLAN_UPDATE=hcc.plan ");
  ::chmod(dir_.c_str(), 0755);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("hcc: error: HCC_PLAN_UPDATE=hcc.plan its directory .: writable by group or others; the plan "
                       "is not updated"),
            std::string::npos)
      << r.err;
  EXPECT_NE(read_file(dir_ + "/hcc.plan").find("out-u2"), std::string::npos);
}

// HCC_PLAN_UPDATE replaces only an absent name, a regular file or a link of
// the user's: renameat would put the plan in place of anything else, and as
// root it replaced /dev/null itself. A FIFO, a socket, a character device
// (made here with mknod when the suite runs as root) and another user's file
// are each refused naming what they are, and stay what they were.
TEST_F(Plan, APlanUpdateReplacesNoDeviceFifoSocketOrOtherUsersFile) {
  dir_ = scratch_dir("plan-update-kinds");
  ASSERT_EQ(build(dir_, "app").status, 0);
  struct Entry {
    std::string name, said;
    mode_t type;
  };
  std::vector<Entry> entries = {{"fifo", "is a FIFO, not a plan", S_IFIFO}, {"sock", "is a socket, not a plan", S_IFSOCK}};
  ASSERT_EQ(::mkfifo((dir_ + "/fifo").c_str(), 0600), 0);
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string sock = dir_ + "/sock";
  ASSERT_LT(sock.size(), sizeof(addr.sun_path));
  std::snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", sock.c_str());
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0);
  if (::mknod((dir_ + "/null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0)
    entries.push_back({"null", "is a character device, not a plan", S_IFCHR});
  std::string why;
  const uid_t other = hcc::test::other_user(why);
  if (other != static_cast<uid_t>(-1)) {
    write(dir_ + "/theirs", "their file\n");
    ASSERT_EQ(::lchown((dir_ + "/theirs").c_str(), other, other), 0);
    entries.push_back({"theirs", "is owned by uid " + std::to_string(other), S_IFREG});
  }
  for (const Entry &e : entries) {
    const RunResult r = run_prog(dir_, "app", e.name, 1000, "HCC_PLAN_UPDATE=" + e.name + " ");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("hcc: error: HCC_PLAN_UPDATE=" + e.name + " " + e.said + "; the plan is not updated"),
              std::string::npos)
        << r.err;
    struct stat st;
    ASSERT_EQ(::lstat((dir_ + "/" + e.name).c_str(), &st), 0) << e.name;
    EXPECT_EQ(st.st_mode & S_IFMT, e.type) << e.name << " was replaced";
  }
  ::close(s);
  if (other != static_cast<uid_t>(-1)) EXPECT_EQ(read_file(dir_ + "/theirs"), "their file\n");
}

// The saving the plan predicts, checked against the runs that follow: CPU
// time, not wall-clock, in runs no other process preempts
// (unpreempted.hpp); 2e7 calls of mix make the saving most of run 1, where
// every visit of mix is counted (HCC_COUNT_STOP=off: a stopped count would
// leave little to save, and a forecast that ignored it would pass too).
// Three runs of each build, interleaved, compared by their medians: what is
// left after the saving is small, so one run slowed by a busy neighbour (a
// shared cache, a core's other hyperthread) would move the ratio by more
// than the forecast's own error (seen once in CI at load 2: 1.39).
TEST_F(Plan, PredictedSavingMatchesTheNextRunsCpuTime) {
  dir_ = scratch_dir("plan-predict");
  ASSERT_EQ(build(dir_, "app1").status, 0);
  ASSERT_EQ(build(dir_ + "", "app0", "HCC_PLAN=off", "--hcc-off").status, 0);
  const std::string fifo = unpreempted(120);
  constexpr int kRounds = 3;
  std::vector<double> cpu1, saved, predicted, cpu2;
  std::string first_plan, first_out;
  auto run_app1 = [&](int round) {
    RunResult r1;
    const std::string out = "out-1-" + std::to_string(round);
    const double cpu = cpu_seconds_of("cd " + shell_quote(dir_) + " && env HCC_VERBOSE=0 HCC_OVERWRITE=1 HCC_COUNT_STOP=off HCC_OUTPUT_DIR=" +
                                          out + " " + fifo + "./app1",
                                      r1);
    ASSERT_EQ(r1.status, 0) << r1.err;
    const std::string plan_file = dir_ + "/plan-" + std::to_string(round);
    const RunResult p = run(shell_quote(report_bin()) + " --plan " + shell_quote(dir_ + "/" + out) + " -o " +
                            shell_quote(plan_file));
    ASSERT_EQ(p.status, 0) << p.err;
    const std::string plan = read_file(plan_file);
    const std::string mark = "per visit) ";
    const size_t at = plan.find(mark);
    ASSERT_NE(at, std::string::npos) << plan;
    const double s = std::atof(plan.c_str() + at + mark.size());
    if (round == 0) {
      first_plan = plan;
      first_out = r1.out;
    } else {
      EXPECT_EQ(r1.out, first_out);
    }
    cpu1.push_back(cpu);
    saved.push_back(s);
    predicted.push_back(cpu - s);
  };
  auto run_app2 = [&] {
    RunResult r2;
    cpu2.push_back(cpu_seconds_of(
        "cd " + shell_quote(dir_) + " && env HCC_VERBOSE=0 HCC_OVERWRITE=1 HCC_OUTPUT_DIR=out-2 " + fifo + "./app2", r2));
    ASSERT_EQ(r2.status, 0) << r2.err;
    EXPECT_EQ(r2.out, first_out);
  };
  ASSERT_NO_FATAL_FAILURE(run_app1(0));
  write(dir_ + "/hcc.plan", first_plan);
  ASSERT_EQ(build(dir_, "app2").status, 0);
  ASSERT_NO_FATAL_FAILURE(run_app2());
  for (int round = 1; round < kRounds; ++round) {
    ASSERT_NO_FATAL_FAILURE(run_app1(round));
    ASSERT_NO_FATAL_FAILURE(run_app2());
  }
  EXPECT_EQ(run("cd " + shell_quote(dir_) + " && ./app0").out, first_out);  // what the plain build prints
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::ostringstream rounds;
  for (int i = 0; i < kRounds; ++i)
    rounds << "round " << i << ": run 1 " << cpu1[i] << " s CPU, predicted saving " << saved[i] << " s, predicted "
           << predicted[i] << " s; run 2 " << cpu2[i] << " s CPU\n";
  const double want = median(predicted), got = median(cpu2);
  std::cout << rounds.str() << "median predicted " << want << " s, median run 2 " << got << " s (ratio "
            << got / want << ")\n";
  ASSERT_GT(want, 0) << first_plan;
  // The saving is a large part of run 1 (30-50 %: libhcc's default
  // throttling times only mix's first calls there, and counts the rest):
  // a prediction that ignored it would miss by more than 25%.
  EXPECT_GT(median(saved), 0.3 * median(cpu1)) << rounds.str() << first_plan << unpreempted_note();
  EXPECT_NEAR(got / want, 1.0, 0.25) << rounds.str() << first_plan << unpreempted_note();
}

}  // namespace
}  // namespace hcc::e2e

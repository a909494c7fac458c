// Plans and filter files on shared machines (issue 40, item 1): real `hcc`
// builds against what another user, `hcc-attacker`, plants beside the
// sources, on a machine where fs.protected_symlinks may be 0 (the tests do
// not rely on it either way: the attacker's link is made by the test and
// handed over with lchown).
//
//   - another user's link at hcc.plan in a sticky directory is refused, and
//     nothing of the file it leads to (a root-only secret) reaches the log;
//   - a hard link at hcc.plan in a sticky directory is refused (anyone may
//     add one there; fs.protected_hardlinks is not relied on either);
//   - a link of your own is followed, and its plan applied;
//   - the instrumentor applies the plan text the driver checked: a plan (or a
//     --hcc-filter file) replaced right after the check, before the
//     instrumentor starts, changes nothing — with the tool started by hcc
//     and in the instrumentation server;
//   - a --hcc-filter path through another user's link is refused; another
//     user's filter file that does not parse is reported by file and line,
//     without its text.
//
// The program: alpha() and beta() each called once by main (all functions
// guarded, --hcc-functions=all). A plan excluding alpha shows in --verbose as
// "leaving 'alpha' alone: excluded by the filter".
#include "e2e_support.hpp"
#include "../support/other_user.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace hcc::e2e {
namespace {

namespace fs = std::filesystem;

const char kSource[] =
    "#include <stdio.h>\n"
    "int alpha(int x) { return x * 3 + 1; }\n"
    "int beta(int x) { return x * 5 + 2; }\n"
    "int main(void) {\n"
    "  printf(\"%d %d\\n\", alpha(2), beta(3));\n"
    "  return 0;\n"
    "}\n";
const char kExpectedOutput[] = "7 17\n";
const char kAlphaLeftOut[] = "leaving 'alpha' alone: excluded by the filter";
const char kBetaLeftOut[] = "leaving 'beta' alone: excluded by the filter";
// What a file only root may read holds; it must never reach a build's log.
const char kSecret[] = "root-secret-3f9a1c: do not print me\n";

void write_file(const std::string &path, const std::string &text, mode_t mode = 0644) {
  std::ofstream(path, std::ios::binary) << text;
  ASSERT_EQ(::chmod(path.c_str(), mode), 0) << path;
}

// The real hcc-instrument, as hcc --hcc-show-config names it.
std::string instrumentor() {
  const RunResult r = run(shell_quote(hcc_bin()) + " --hcc-show-config");
  std::smatch m;
  static const std::regex re("instrumentor: (\\S+)");
  return std::regex_search(r.out, m, re) ? m[1].str() : "";
}

// Ends the instrumentation servers whose socket is under `run_dir` (the
// test's own XDG_RUNTIME_DIR), found by their --serve=SOCKET argument.
void stop_servers_under(const std::string &run_dir) {
  const std::string prefix = "--serve=" + run_dir + "/";
  for (const auto &e : fs::directory_iterator("/proc")) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::istringstream cmdline(read_file(e.path().string() + "/cmdline"));  // NUL-separated
    for (std::string word; std::getline(cmdline, word, '\0');)
      if (word.rfind(prefix, 0) == 0) ::kill(std::stoi(pid), SIGTERM);
  }
}

class PlanTrust : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_dir(std::string("plan_trust/") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    write_file(dir_ + "/app.c", kSource);
  }

  // The second user, or a skip.
  bool need_other_user() {
    std::string why;
    attacker_ = hcc::test::other_user(why);
    if (attacker_ == static_cast<uid_t>(-1)) {
      skip_ = why;
      return false;
    }
    return true;
  }

  // The build directory as /tmp is: anyone may add names, only a name's
  // owner may remove or rename it.
  void make_sticky() { ASSERT_EQ(::chmod(dir_.c_str(), 01777), 0); }
  void TearDown() override { ::chmod(dir_.c_str(), 0755); }

  // `hcc -O1 app.c -o app` in the test's directory, verbose (the tool's
  // "leaving … alone" lines), every function guarded, no cache; `env` adds
  // settings (HCC_SERVER=off unless `env` sets another).
  RunResult build(const std::string &env = "", const std::string &opts = "") {
    return run("cd " + shell_quote(dir_) + " && env HCC_CACHE=off HCC_SERVER=off " + env + " " +
               shell_quote(hcc_bin()) + " --hcc-verbose --hcc-functions=all " + opts + " -O1 app.c -o app");
  }

  // The program runs as the plain build does.
  void expect_program_output() {
    const RunResult r = run("cd " + shell_quote(dir_) + " && HCC_OUTPUT_DIR=prof HCC_OVERWRITE=1 ./app");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, kExpectedOutput);
  }

  // A stand-in for hcc-instrument that first replaces `what` with
  // `replacement` (a rename, as another process could do at any moment
  // after hcc's check) and then runs the real tool: the window between the
  // check and the instrumentor's start, made certain.
  std::string swapping_instrumentor(const std::string &what, const std::string &replacement) {
    const std::string tool = instrumentor();
    EXPECT_FALSE(tool.empty());
    const std::string script = dir_ + "/swap-then-instrument.sh";
    write_file(script,
               "#!/bin/sh\nmv -f " + shell_quote(replacement) + " " + shell_quote(what) + " || exit 99\nexec " +
                   shell_quote(tool) + " \"$@\"\n",
               0755);
    return script;
  }

  std::string dir_, skip_;
  uid_t attacker_ = 0;
};

// The case: in a sticky directory (/tmp itself) another user
// plants hcc.plan as a link to a file only root may read. hcc followed it,
// found a root-owned file root alone may write, skipped the directory check
// for a sticky directory, and the filter parser's error quoted the secret's
// first line into the build log. Now the link is refused, naming its owner,
// and nothing of the secret is read.
TEST_F(PlanTrust, AnotherUsersLinkAtThePlansNameInAStickyDirectoryIsRefused) {
  if (!need_other_user()) GTEST_SKIP() << skip_;
  const std::string secret = scratch_dir("plan_trust/secret") + "/root-only";
  write_file(secret, kSecret, 0600);
  make_sticky();
  ASSERT_EQ(::symlink(secret.c_str(), (dir_ + "/hcc.plan").c_str()), 0);
  ASSERT_EQ(::lchown((dir_ + "/hcc.plan").c_str(), attacker_, attacker_), 0);

  const RunResult b = build();
  EXPECT_EQ(b.status, 1) << b.err;
  EXPECT_NE(b.err.find("hcc: error: plan hcc.plan refused: 'hcc.plan' is a symbolic link owned by uid " +
                       std::to_string(attacker_) + ", neither you, root nor the owner of its directory: not followed"),
            std::string::npos)
      << b.err;
  EXPECT_EQ(b.err.find("root-secret"), std::string::npos) << "the secret reached the log:\n" << b.err;
  EXPECT_EQ(b.out.find("root-secret"), std::string::npos) << b.out;
  EXPECT_FALSE(fs::exists(dir_ + "/app")) << "built with a plan it should have refused";
}

// A hard link in a sticky directory can be anyone's name for a file of
// yours (with fs.protected_hardlinks=0 another user may make one to any
// file): a plan there with more than one name is refused. The test makes
// the link itself, as root: that is what the other user could do.
TEST_F(PlanTrust, AHardLinkAtThePlansNameInAStickyDirectoryIsRefused) {
  const std::string elsewhere = scratch_dir("plan_trust/hardlink-target") + "/some.plan";
  write_file(elsewhere, "exclude alpha\n", 0644);
  make_sticky();
  ASSERT_EQ(::link(elsewhere.c_str(), (dir_ + "/hcc.plan").c_str()), 0);
  const RunResult b = build();
  EXPECT_EQ(b.status, 1) << b.err;
  EXPECT_NE(b.err.find("hcc: error: plan hcc.plan refused: it has 2 names (hard links) in the sticky directory ."),
            std::string::npos)
      << b.err;
  EXPECT_FALSE(fs::exists(dir_ + "/app"));
}

// A link of your own at the plan's name (here root's, as the suite runs
// as root; also the sticky directory's owner) is followed: its plan is
// applied and the program is right.
TEST_F(PlanTrust, YourOwnLinkAtThePlansNameIsFollowed) {
  const std::string elsewhere = scratch_dir("plan_trust/own-link-target") + "/mine.plan";
  write_file(elsewhere, "exclude alpha\n", 0644);
  make_sticky();
  ASSERT_EQ(::symlink(elsewhere.c_str(), (dir_ + "/hcc.plan").c_str()), 0);
  const RunResult b = build();
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.err.find(kAlphaLeftOut), std::string::npos) << b.err;
  EXPECT_EQ(b.err.find(kBetaLeftOut), std::string::npos) << b.err;
  expect_program_output();
}

// The plan is replaced between hcc's check and the instrumentor's start
// (issue 40: root's build used the attacker's plan in 2 of 16 builds when
// the swap fell there). The instrumentor used to open hcc.plan again and
// applied the new one; now it applies the text hcc checked.
TEST_F(PlanTrust, APlanReplacedAfterTheCheckIsNotWhatTheInstrumentorApplies) {
  write_file(dir_ + "/hcc.plan", "exclude alpha\n", 0644);
  write_file(dir_ + "/other.plan", "exclude beta\n", 0644);
  const std::string tool = swapping_instrumentor(dir_ + "/hcc.plan", dir_ + "/other.plan");
  const RunResult b = build("HCC_INSTRUMENTOR=" + shell_quote(tool));
  ASSERT_EQ(b.status, 0) << b.err;
  ASSERT_EQ(read_file(dir_ + "/hcc.plan"), "exclude beta\n") << "the stand-in did not swap the plan";
  EXPECT_NE(b.err.find(kAlphaLeftOut), std::string::npos) << "the checked plan was not applied\n" << b.err;
  EXPECT_EQ(b.err.find(kBetaLeftOut), std::string::npos) << "the plan swapped in was applied\n" << b.err;
  expect_program_output();
}

// The same for a --hcc-filter file: checked once, that text applied.
TEST_F(PlanTrust, AFilterFileReplacedAfterTheCheckIsNotWhatTheInstrumentorApplies) {
  write_file(dir_ + "/sel.filt", "exclude alpha\n", 0644);
  write_file(dir_ + "/other.filt", "exclude beta\n", 0644);
  const std::string tool = swapping_instrumentor(dir_ + "/sel.filt", dir_ + "/other.filt");
  const RunResult b = build("HCC_PLAN=off HCC_INSTRUMENTOR=" + shell_quote(tool), "--hcc-filter=sel.filt");
  ASSERT_EQ(b.status, 0) << b.err;
  ASSERT_EQ(read_file(dir_ + "/sel.filt"), "exclude beta\n") << "the stand-in did not swap the filter";
  EXPECT_NE(b.err.find(kAlphaLeftOut), std::string::npos) << b.err;
  EXPECT_EQ(b.err.find(kBetaLeftOut), std::string::npos) << b.err;
  expect_program_output();
}

// In the instrumentation server the plan's text travels with the request
// (the worker reads no file of the client's by name): a served build
// applies the plan beside the source, and the same build with the plan
// changed is rebuilt, not served from the cache (the key covers the text).
TEST_F(PlanTrust, TheServersWorkerAppliesThePlansTextAndTheCacheKeyCoversIt) {
  // A short directory for the socket (sun_path holds 108 bytes).
  const std::string run_dir = scratch_dir("pt-run"), cache = dir_ + "/cache";
  ASSERT_EQ(::chmod(run_dir.c_str(), 0700), 0);
  const std::string env = "HCC_SERVER=on HCC_SERVER_IDLE=30 XDG_RUNTIME_DIR=" + shell_quote(run_dir);
  write_file(dir_ + "/hcc.plan", "exclude alpha\n", 0644);
  // The first build starts the server; the later ones run in it.
  RunResult b = build(env);
  ASSERT_EQ(b.status, 0) << b.err;
  bool served = false;
  for (int i = 0; i < 100 && !served; ++i) {
    b = build(env);
    ASSERT_EQ(b.status, 0) << b.err;
    served = b.err.find("(in the instrumentation server)") != std::string::npos;
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_TRUE(served) << b.err;
  EXPECT_NE(b.err.find(kAlphaLeftOut), std::string::npos) << b.err;
  EXPECT_EQ(b.err.find(kBetaLeftOut), std::string::npos) << b.err;
  expect_program_output();

  // With the cache: stored by the worker, then the plan changes.
  const std::string cached = env + " HCC_CACHE=on HCC_CACHE_DIR=" + shell_quote(cache);
  b = build(cached);
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.err.find("(in the instrumentation server)"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find(kAlphaLeftOut), std::string::npos) << b.err;
  write_file(dir_ + "/hcc.plan", "exclude beta\n", 0644);
  b = build(cached);
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_EQ(b.err.find("(from the instrumentation cache)"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("(in the instrumentation server)"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find(kBetaLeftOut), std::string::npos) << b.err;
  EXPECT_EQ(b.err.find(kAlphaLeftOut), std::string::npos) << b.err;
  expect_program_output();
  // Unchanged again: now from the cache, with the same plan applied.
  b = build(cached);
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NE(b.err.find("(from the instrumentation cache)"), std::string::npos) << b.err;
  EXPECT_NE(b.err.find(kBetaLeftOut), std::string::npos) << b.err;
  stop_servers_under(run_dir);
}

// --hcc-filter named through a link another user planted (a path in /tmp
// the attacker created first, pointing at a file only root may read): the
// link is refused like a plan's, and nothing of its target is read.
TEST_F(PlanTrust, AFilterPathThroughAnotherUsersLinkIsRefused) {
  if (!need_other_user()) GTEST_SKIP() << skip_;
  const std::string secret = scratch_dir("plan_trust/filter-secret") + "/root-only";
  write_file(secret, kSecret, 0600);
  make_sticky();
  ASSERT_EQ(::symlink(secret.c_str(), (dir_ + "/shared.filt").c_str()), 0);
  ASSERT_EQ(::lchown((dir_ + "/shared.filt").c_str(), attacker_, attacker_), 0);
  const RunResult b = build("HCC_PLAN=off", "--hcc-filter=shared.filt");
  EXPECT_EQ(b.status, 1) << b.err;
  EXPECT_NE(b.err.find("hcc: error: shared.filt: cannot read the filter file: 'shared.filt' is a symbolic link owned "
                       "by uid " +
                       std::to_string(attacker_) + ", neither you, root nor the owner of its directory: not followed"),
            std::string::npos)
      << b.err;
  EXPECT_EQ(b.err.find("root-secret"), std::string::npos) << b.err;
  EXPECT_FALSE(fs::exists(dir_ + "/app"));
}

// A filter file another user owns is used when named (a colleague's filter
// in a shared project), but when it does not parse the message names the
// file and line only: its text may be anything, and the log may be read by
// others. A file of your own is quoted as before.
TEST_F(PlanTrust, AnotherUsersFilterThatDoesNotParseIsReportedWithoutItsText) {
  if (!need_other_user()) GTEST_SKIP() << skip_;
  write_file(dir_ + "/theirs.filt", std::string("# a comment\n") + kSecret, 0644);
  ASSERT_EQ(::lchown((dir_ + "/theirs.filt").c_str(), attacker_, attacker_), 0);
  RunResult b = build("HCC_PLAN=off", "--hcc-filter=theirs.filt");
  EXPECT_EQ(b.status, 1) << b.err;
  EXPECT_NE(b.err.find("hcc: error: theirs.filt:2: not a valid filter line (not shown: the file is owned by uid " +
                       std::to_string(attacker_) + ", not you)\n"),
            std::string::npos)
      << b.err;
  EXPECT_EQ(b.err.find("root-secret"), std::string::npos) << b.err;
  EXPECT_FALSE(fs::exists(dir_ + "/app"));

  write_file(dir_ + "/mine.filt", "# a comment\nnot a rule\n", 0644);
  b = build("HCC_PLAN=off", "--hcc-filter=mine.filt");
  EXPECT_EQ(b.status, 1) << b.err;
  EXPECT_NE(b.err.find("hcc: error: mine.filt:2: not a filter file: "), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("found 'not a rule'"), std::string::npos) << b.err;
}

}  // namespace
}  // namespace hcc::e2e

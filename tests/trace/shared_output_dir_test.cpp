// An output directory another user owns (issue 28): that user swaps the
// names the tracer claimed (traces.otf2, traces.def, traces/) for symbolic
// links while the archive is being written — to a root-only file, to a
// private directory of the victim, or to a directory of its own holding
// links named like OTF2's event files. OTF2 writes only inside a fresh
// private directory and the archive is moved onto the claimed names only if
// they still hold what was claimed: the link targets keep their bytes, the
// victim's directory stays empty, the links are left alone, and the archive
// is whole (readable by otf2-print): in the private directory the error
// names, or under the next name when the swap came while the names were
// being claimed. Needs a second user: created when running as root, else
// skipped.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "e2e_support.hpp"
#include "other_user.hpp"
#include "trace_support.hpp"

using namespace hcc::e2e;
namespace fs = std::filesystem;

namespace {

const std::string kSecret = "root only: must never change\n";

struct Scene {
  std::string dir, out, secret, victim, trap, logs;
  uid_t other = uid_t(-1);
};

// <dir>/secret (0600), <dir>/victim/ (0700), <dir>/out/ (the other user's,
// 0777) with out/trap/ holding 0.evt and 0.def → secret (the other user's),
// <dir>/logs/ for the attacker's output.
Scene set_scene(const std::string &name, uid_t other) {
  Scene s;
  s.other = other;
  s.dir = scratch_dir(name);
  s.out = s.dir + "/out", s.secret = s.dir + "/secret", s.victim = s.dir + "/victim", s.logs = s.dir + "/logs";
  s.trap = s.out + "/trap";
  chmod(s.dir.c_str(), 0755);
  std::ofstream(s.secret) << kSecret;
  chmod(s.secret.c_str(), 0600);
  fs::create_directory(s.victim);
  chmod(s.victim.c_str(), 0700);
  for (const std::string &d : {s.out, s.logs, s.trap}) {
    fs::create_directory(d);
    chmod(d.c_str(), 0777);
    EXPECT_EQ(lchown(d.c_str(), other, gid_t(-1)), 0);
  }
  for (const char *f : {"0.evt", "0.def"}) {
    fs::create_symlink(s.secret, s.trap + "/" + f);
    EXPECT_EQ(lchown((s.trap + "/" + f).c_str(), other, gid_t(-1)), 0);
  }
  return s;
}

std::string compile(const std::string &dir, const std::string &src, const std::string &name) {
  const std::string exe = dir + "/" + name;
  const RunResult r = run("gcc -O1 " + shell_quote(src) + " -o " + shell_quote(exe));
  EXPECT_EQ(r.status, 0) << r.err;
  return exe;
}


// For the attacker's command line, which run_as_other_user puts in single quotes.
std::string dq(const std::string &s) { return "\"" + s + "\""; }

// Starts the attacker (tests/support/swap_when_claimed.c) as the other user,
// in the background; returns its pid.
pid_t start_attacker(const Scene &s, const std::string &args) {
  const std::string swap = compile(s.dir, HCC_SUPPORT_DIR "/swap_when_claimed.c", "swap_when_claimed");
  EXPECT_EQ(hcc::test::run_as_other_user(dq(swap) + " " + args + " >" + s.logs + "/swap.out 2>&1 & echo $! >" +
                                         s.logs + "/swap.pid"),
            0);
  return pid_t(std::stol(read_file(s.logs + "/swap.pid")));
}

// Waits (at most a minute) for the attacker to end; true when it swapped.
bool attacker_swapped(const Scene &s, pid_t pid) {
  for (int i = 0; i < 600 && kill(pid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return read_file(s.logs + "/swap.out") == "swapped\n";
}

// The private directories left in `out`, named .<archive>.tmp-XXXXXX.
std::vector<std::string> private_dirs(const std::string &out, const std::string &archive) {
  std::vector<std::string> found;
  for (const auto &e : fs::directory_iterator(out))
    if (e.path().filename().string().rfind("." + archive + ".tmp-", 0) == 0) found.push_back(e.path().string());
  return found;
}

}  // namespace

class TraceClaimSwappedByAnotherUser : public ::testing::TestWithParam<const char *> {};

// traces/ is swapped for a link to the victim's private directory
// ("victim"), or to the attacker's directory whose 0.evt and 0.def lead to
// the root-only file ("trap").
TEST_P(TraceClaimSwappedByAnotherUser, NothingIsWrittenThroughTheLinksAndTheArchiveStaysWhole) {
  std::string why;
  const uid_t other = hcc::test::other_user(why);
  if (other == uid_t(-1)) GTEST_SKIP() << why;
  const std::string where = GetParam();
  const Scene s = set_scene(std::string("trace-claim-swapped-") + where, other);
  const std::string exe = hcc::trace_test::build_program(s.dir, "many_calls.c");
  const std::string dir_target = where == std::string("victim") ? s.victim : s.trap;
  // Triggered by traces/, the last name claimed (and, before, made by OTF2
  // once the anchor and definitions were claimed).
  const pid_t attacker = start_attacker(s, dq(s.out) + " traces 60 traces.otf2=" + s.secret +
                                                 " traces.def=" + s.secret + " traces=" + dir_target);

  const RunResult r = run("HCC_TRACE=1 HCC_OUTPUT_DIR=" + shell_quote(s.out) + " " + shell_quote(exe));
  ASSERT_TRUE(attacker_swapped(s, attacker)) << "the attacker never saw traces/ made: "
                                             << read_file(s.logs + "/swap.out") << r.err;
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "fib(28) = 317811\n");

  // Nothing written through a link, nothing created in the victim's directory.
  EXPECT_EQ(read_file(s.secret), kSecret) << "the root-only file was overwritten";
  EXPECT_EQ(fs::status(s.secret).permissions(), fs::perms(0600));
  EXPECT_TRUE(fs::is_empty(s.victim)) << "files were created in the victim's private directory";
  for (const char *f : {"0.evt", "0.def"}) EXPECT_TRUE(fs::is_symlink(s.trap + "/" + f)) << f;
  // The attacker's links are left alone.
  for (const char *f : {"traces.otf2", "traces.def", "traces"}) EXPECT_TRUE(fs::is_symlink(s.out + "/" + f)) << f;

  // Where the archive is depends on when the attacker struck. After the
  // names were claimed: refused at the end with one error naming the swapped
  // name, the archive whole in the private directory it names. While they
  // were being claimed: the claim moves on to traces-1, which is published.
  std::string anchor;
  const std::vector<std::string> priv = private_dirs(s.out, "traces");
  if (!priv.empty()) {
    const std::string said = "hcc: error: HCC_TRACE=1: the trace was not put in place: '" + s.out +
                             "/traces' was replaced while the trace was written (now a symbolic link owned by uid " +
                             std::to_string(other) + "): left alone; the archive is left whole in '" + priv[0] + "/'";
    EXPECT_NE(r.err.find(said), std::string::npos) << r.err;
    EXPECT_NE(read_file(s.out + "/summary.txt").find("not put in place: '" + s.out + "/traces' was replaced"),
              std::string::npos);
    ASSERT_EQ(priv.size(), 1u);
    struct stat st;
    ASSERT_EQ(lstat(priv[0].c_str(), &st), 0);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    EXPECT_EQ(st.st_uid, geteuid());
    anchor = priv[0] + "/traces.otf2";
  } else {
    EXPECT_EQ(r.err.find("hcc: error"), std::string::npos) << r.err;
    anchor = s.out + "/traces-1.otf2";
  }
  EXPECT_TRUE(fs::exists(s.out + "/profile.cubex"));
  std::string error;
  long fib = 0;
  for (const auto &e : hcc::trace_test::read_events(anchor, &error)) fib += e.kind == "ENTER" && e.region == "fib";
  EXPECT_EQ(error, "");
  EXPECT_EQ(fib, 1028457);
}

INSTANTIATE_TEST_SUITE_P(Trace, TraceClaimSwappedByAnotherUser, ::testing::Values("victim", "trap"));

// The same directory, nobody attacking: the archive is moved onto its names
// and the private directory removed.
TEST(TraceInAnotherUsersDirectory, WithoutAnAttackTheArchiveIsPutInPlace) {
  std::string why;
  const uid_t other = hcc::test::other_user(why);
  if (other == uid_t(-1)) GTEST_SKIP() << why;
  const Scene s = set_scene("trace-claim-untouched", other);
  const std::string exe = hcc::trace_test::build_program(s.dir, "many_calls.c");
  const RunResult r = run("HCC_VERBOSE=0 HCC_TRACE=1 HCC_OUTPUT_DIR=" + shell_quote(s.out) + " " + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(private_dirs(s.out, "traces").empty());
  std::string error;
  long fib = 0;
  for (const auto &e : hcc::trace_test::read_events(s.out + "/traces.otf2", &error))
    fib += e.kind == "ENTER" && e.region == "fib";
  EXPECT_EQ(error, "");
  EXPECT_EQ(fib, 1028457);
  EXPECT_EQ(read_file(s.secret), kSecret);
}

// HCC_OUTPUT_DIR=<a directory another user owns>/run, run/ the victim's:
// once the first snapshot is in it, that user renames run/ aside and puts a
// link to the victim's private directory in its place. Before, every later write opened
// the output directory by name again, and a link owned by the owner of the
// directory holding it is followed (the kernel's protected_symlinks rule):
// snapshots, profile.cubex, summary.txt and gmon.out went into the victim's
// directory. Now the directory is opened once and every file of the run goes
// to it.
TEST(OutputDirectorySwappedByAnotherUser, EveryFileStillGoesToTheDirectoryFirstOpened) {
  std::string why;
  const uid_t other = hcc::test::other_user(why);
  if (other == uid_t(-1)) GTEST_SKIP() << why;
  const Scene s = set_scene("output-dir-swapped", other);
  const std::string exe = hcc::trace_test::build_program(s.dir, "longrun.c");
  fs::create_directory(s.out + "/run");
  const pid_t attacker = start_attacker(s, dq(s.out) + " run/snapshot.cubex 60 run=" + s.victim);
  const RunResult r = run("HCC_VERBOSE=0 HCC_SNAPSHOT=0.2 HCC_GPROF=1 HCC_OUTPUT_DIR=" + shell_quote(s.out + "/run") + " " +
                          shell_quote(exe));
  ASSERT_TRUE(attacker_swapped(s, attacker)) << "the attacker never saw the first snapshot: "
                                             << read_file(s.logs + "/swap.out") << r.err;
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "done: yes\n");
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(fs::is_empty(s.victim)) << "files were created in the victim's private directory";
  EXPECT_TRUE(fs::is_symlink(s.out + "/run")) << "the attacker's link is left alone";
  for (const char *f : {"profile.cubex", "summary.txt", "snapshot.cubex", "gmon.out"})
    EXPECT_TRUE(fs::is_regular_file(s.out + "/moved-run/" + f)) << f;
  EXPECT_EQ(read_file(s.secret), kSecret);
}

// TMPDIR=<a directory another user owns>: once the spill directory
// hcc-trace-<pid>-XXXXXX is there (main's first flush), that user renames it
// aside and puts in its place a link to a directory of its own where
// thread-1.records leads to the root-only file. Before, the worker's spill
// file was opened by that path with O_TRUNC: the root-only file was
// truncated and filled with trace records. Now the spill directory is used
// through its handle only and the file is created O_EXCL|O_NOFOLLOW: the
// trace is complete and the root-only file keeps its bytes.
TEST(SpillDirectorySwappedByAnotherUser, SpillFilesStayInTheDirectoryMadeForThem) {
  std::string why;
  const uid_t other = hcc::test::other_user(why);
  if (other == uid_t(-1)) GTEST_SKIP() << why;
  const Scene s = set_scene("spill-dir-swapped", other);
  for (const char *f : {"thread-1.records", "thread-0.records"}) {
    fs::create_symlink(s.secret, s.trap + "/" + f);
    EXPECT_EQ(lchown((s.trap + "/" + f).c_str(), other, gid_t(-1)), 0);
  }
  const std::string exe = hcc::trace_test::build_program(s.dir, "late_thread.c");
  const pid_t attacker = start_attacker(s, dq(s.out) + " \"hcc-trace-*\" 60 %=" + s.trap);
  const RunResult r = run("TMPDIR=" + shell_quote(s.out) + " HCC_VERBOSE=0 HCC_TRACE=1 HCC_TRACE_BUFFER=1K HCC_OUTPUT_DIR=" +
                          shell_quote(s.dir + "/profile") + " " + shell_quote(exe));
  ASSERT_TRUE(attacker_swapped(s, attacker)) << "the attacker never saw the spill directory: "
                                             << read_file(s.logs + "/swap.out") << r.err;
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "144 610\n");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_file(s.secret), kSecret) << "the root-only file was overwritten";
  for (const char *f : {"thread-1.records", "thread-0.records"}) EXPECT_TRUE(fs::is_symlink(s.trap + "/" + f)) << f;
  std::string error;
  long fib = 0;
  for (const auto &e : hcc::trace_test::read_events(s.dir + "/profile/traces.otf2", &error))
    fib += e.kind == "ENTER" && e.region == "fib";
  EXPECT_EQ(error, "");
  EXPECT_EQ(fib, 465 + 1973);
}

// The other user's links planted before the run at every name the run
// writes in its output directory — profile.cubex, summary.txt,
// snapshot.cubex, gmon.out — all leading to the root-only file, with and
// without HCC_OVERWRITE=1: the file keeps its bytes (each is written to a
// file created O_EXCL|O_NOFOLLOW, then linked or renamed onto its name,
// which never follows a link). A guard: this already held before issue 28.
TEST(PlantedByAnotherUser, LinksAtEveryOutputNameAreNeverWrittenThrough) {
  std::string why;
  const uid_t other = hcc::test::other_user(why);
  if (other == uid_t(-1)) GTEST_SKIP() << why;
  for (const char *overwrite : {"0", "1"}) {
    SCOPED_TRACE(std::string("HCC_OVERWRITE=") + overwrite);
    const Scene s = set_scene(std::string("planted-by-other-") + overwrite, other);
    for (const char *f : {"profile.cubex", "summary.txt", "snapshot.cubex", "gmon.out"}) {
      fs::create_symlink(s.secret, s.out + "/" + f);
      EXPECT_EQ(lchown((s.out + "/" + f).c_str(), other, gid_t(-1)), 0);
    }
    const std::string exe = hcc::trace_test::build_program(s.dir, "longrun.c");
    const RunResult r = run("HCC_VERBOSE=0 HCC_SNAPSHOT=0.5 HCC_GPROF=1 HCC_OVERWRITE=" + std::string(overwrite) +
                            " HCC_OUTPUT_DIR=" + shell_quote(s.out) + " " + shell_quote(exe));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "done: yes\n");
    EXPECT_EQ(read_file(s.secret), kSecret) << "the root-only file was overwritten";
    EXPECT_EQ(fs::status(s.secret).permissions(), fs::perms(0600));
  }
}

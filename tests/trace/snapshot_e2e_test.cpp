// HCC_SNAPSHOT and hcc-report --watch end to end: a real program that calls
// work() in a loop until the test tells it to stop (longrun.c, a stop file),
// its snapshots read while it runs. The test waits for events (a file
// appears, a snapshot has counted calls, the watch says it waits, the watch
// has redrawn three snapshots), never for a fixed time, and the program runs
// until the test has seen them, however busy the machine is (issue 29).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "e2e_support.hpp"

using namespace hcc::e2e;
namespace fs = std::filesystem;

namespace {

std::string build_longrun(const std::string &dir) {
  const std::string exe = dir + "/longrun.exe";
  const RunResult r = run(shell_quote(hcc_bin()) + " --hcc-functions=all -O1 " + shell_quote(programs_dir() + "/longrun.c") + " -o " +
                          shell_quote(exe));
  EXPECT_EQ(r.status, 0) << r.err;
  return exe;
}

// longrun.exe writing snapshots every 0.5 s into `out`, until `stop` exists.
std::string longrun_command(const std::string &exe, const std::string &out, const std::string &stop) {
  return "LONGRUN_STOP=" + shell_quote(stop) + " HCC_SNAPSHOT=0.5 HCC_OUTPUT_DIR=" + shell_quote(out) + " " +
         shell_quote(exe);
}

void create(const std::string &file) { std::ofstream(file).put('\n'); }

// The number of work() calls longrun.exe says it made, or -1.
long calls_made(const RunResult &r) {
  std::smatch m;
  return std::regex_search(r.err, m, std::regex("longrun: ([0-9]+) calls")) ? std::stol(m[1]) : -1;
}

size_t occurrences(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

void nap() { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }

}  // namespace

TEST(Snapshot, TheProfileSoFarIsWrittenWhileTheProgramRuns) {
  const std::string dir = scratch_dir("snapshot-run");
  const std::string exe = build_longrun(dir);
  const std::string out = dir + "/out", snapshot = out + "/snapshot.cubex", stop = dir + "/stop";
  RunResult prog;
  std::atomic<bool> ended{false};
  std::thread t([&] {
    prog = run(longrun_command(exe, out, stop));
    ended = true;
  });
  // Read each new snapshot until one has counted work() calls (the first
  // may come before the program's first call on a loaded machine). The
  // program runs until told to stop: the final profile cannot come first.
  bool final_there = false;
  long so_far = 0;
  std::string text, unreadable;
  fs::file_time_type seen{};
  while (!ended && so_far <= 0) {
    nap();
    final_there = fs::exists(out + "/profile.cubex");
    std::error_code ec;
    const fs::file_time_type written = fs::last_write_time(snapshot, ec);
    if (ec || written == seen) continue;
    seen = written;
    try {
      so_far = Profile::load(snapshot).total_visits("work");
    } catch (const std::exception &e) {
      unreadable = e.what();  // read again when it is replaced
    }
  }
  if (so_far > 0) text = run(shell_quote(report_bin()) + " --summary " + shell_quote(snapshot)).out;
  create(stop);
  t.join();
  ASSERT_EQ(prog.status, 0) << prog.err;
  EXPECT_EQ(prog.out, "done: yes\n");
  ASSERT_GT(so_far, 0) << "no snapshot with work() calls while the program ran " << unreadable;
  EXPECT_FALSE(final_there) << "the final profile was there before the snapshot";
  EXPECT_NE(text.find("Snapshot:   taken"), std::string::npos) << text;
  // The final profile has counted on since: every call the program made,
  // also those after the snapshot (at least the round after the stop).
  const Profile fin = Profile::load(out);
  EXPECT_EQ(fin.total_visits("work"), calls_made(prog)) << prog.err;
  EXPECT_GT(fin.total_visits("work"), so_far);
  // The snapshot thread is not a location and entered no region.
  EXPECT_EQ(fin.locations(), 1u);
}

TEST(Snapshot, WatchRedrawsEachSnapshotUntilTheRunEnds) {
  const std::string dir = scratch_dir("snapshot-watch");
  const std::string exe = build_longrun(dir);
  const std::string out = dir + "/out", stop = dir + "/stop";
  const std::string watch_out = dir + "/watch.out", watch_err = dir + "/watch.err";
  RunResult w;
  std::atomic<bool> watch_ended{false};
  std::thread watcher([&] {
    w = run("timeout 180 " + shell_quote(report_bin()) + " --watch " + shell_quote(out) + " --top 3 >" +
            shell_quote(watch_out) + " 2>" + shell_quote(watch_err));
    watch_ended = true;
  });
  // The watch starts first and waits: the program starts once the watch
  // has said so, or when the watch has ended without saying it.
  while (!watch_ended && read_file(watch_err).find("waiting for") == std::string::npos) nap();
  RunResult prog;
  std::atomic<bool> prog_ended{false};
  std::thread program([&] {
    prog = run(longrun_command(exe, out, stop));
    prog_ended = true;
  });
  // The program stops once the watch has redrawn three snapshots.
  while (!prog_ended && !watch_ended && occurrences(read_file(watch_out), "snapshot.cubex: taken") < 3) nap();
  create(stop);
  program.join();
  watcher.join();
  w.out = read_file(watch_out);
  w.err = read_file(watch_err);
  ASSERT_EQ(prog.status, 0) << prog.err;
  EXPECT_EQ(w.status, 0) << w.err;
  EXPECT_NE(w.err.find("waiting for"), std::string::npos) << w.err;
  // Several redraws (one per snapshot seen), then the final profile.
  EXPECT_GE(occurrences(w.out, "snapshot.cubex: taken"), 3u) << w.out;
  const size_t last = w.out.rfind("hcc-report --watch");
  ASSERT_NE(last, std::string::npos);
  const std::string final_block = w.out.substr(last);
  EXPECT_NE(final_block.find("(run finished)"), std::string::npos) << final_block;
  EXPECT_NE(final_block.find("profile.cubex: final profile"), std::string::npos);
  EXPECT_NE(final_block.find("main → work"), std::string::npos) << final_block;
  // --top 3: three rows: main → work, main, and a third that its few
  // microseconds make whichever path one sample lands on (main → now, a
  // sampled function, a failed unwind).
  // A row begins with its exclusive time ("~3.998" when it came from
  // samples); the legend below the table begins with "~ ".
  static const std::regex row("\\n *~?[0-9]+\\.[0-9]+ ");
  const size_t rows = size_t(std::distance(std::sregex_iterator(final_block.begin(), final_block.end(), row),
                                           std::sregex_iterator()));
  EXPECT_EQ(rows, 3u) << final_block;
  EXPECT_GE(occurrences(final_block, "  main"), 2u) << final_block;
}

TEST(Snapshot, BadPeriodIsNamed) {
  const std::string dir = scratch_dir("snapshot-bad");
  const std::string exe = dir + "/fib.exe";
  ASSERT_EQ(run(shell_quote(hcc_bin()) + " --hcc-functions=all -O1 " + shell_quote(programs_dir() + "/fib.c") + " -o " + shell_quote(exe)).status, 0);
  const RunResult r = run("HCC_SNAPSHOT=soon HCC_OUTPUT_DIR=" + shell_quote(dir + "/out") + " " + shell_quote(exe));
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("HCC_SNAPSHOT='soon' is not a number of seconds"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out/snapshot.cubex"));
}

// HCC_SNAPSHOT and hcc-report --watch end to end: a real program that runs
// for about 4 seconds, its snapshots read while it runs. The test waits for
// events (a file appears, the watch says it waits), never for a fixed time.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
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

size_t occurrences(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(Snapshot, TheProfileSoFarIsWrittenWhileTheProgramRuns) {
  const std::string dir = scratch_dir("snapshot-run");
  const std::string exe = build_longrun(dir);
  const std::string out = dir + "/out";
  RunResult prog;
  std::atomic<bool> ended{false};
  std::thread t([&] {
    prog = run("HCC_SNAPSHOT=0.5 HCC_OUTPUT_DIR=" + shell_quote(out) + " " + shell_quote(exe));
    ended = true;
  });
  // Look for the first snapshot until the run ends (not for a fixed time: on
  // a loaded machine the program may take long to start). It must appear
  // while the program still runs, i.e. before the final profile does.
  bool snapshot_there = false, final_there = false;
  while (!ended && !snapshot_there) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    final_there = fs::exists(out + "/profile.cubex");
    snapshot_there = fs::exists(out + "/snapshot.cubex");
  }
  long so_far = -1;
  std::string text;
  if (snapshot_there) {
    so_far = Profile::load(out + "/snapshot.cubex").total_visits("work");
    text = run(shell_quote(report_bin()) + " --summary " + shell_quote(out + "/snapshot.cubex")).out;
  }
  t.join();
  ASSERT_EQ(prog.status, 0) << prog.err;
  EXPECT_EQ(prog.out, "done: yes\n");
  ASSERT_TRUE(snapshot_there) << "no snapshot while the program ran";
  EXPECT_FALSE(final_there) << "the final profile was there before the first snapshot";
  EXPECT_GT(so_far, 0);
  EXPECT_NE(text.find("Snapshot:   taken"), std::string::npos) << text;
  // The final profile has counted on since.
  const Profile fin = Profile::load(out);
  EXPECT_GT(fin.total_visits("work"), so_far);
  // The snapshot thread is not a location and entered no region.
  EXPECT_EQ(fin.locations(), 1u);
}

TEST(Snapshot, WatchRedrawsEachSnapshotUntilTheRunEnds) {
  const std::string dir = scratch_dir("snapshot-watch");
  const std::string exe = build_longrun(dir);
  const std::string out = dir + "/out";
  const std::string watch_err = dir + "/watch.err";
  RunResult prog;
  std::atomic<bool> watch_ended{false};
  std::thread t([&] {
    // The watch starts first and waits: the program starts once the watch
    // has said so (not after a fixed delay, which a loaded machine can
    // outlast), or when the watch has ended without saying it.
    while (!watch_ended && read_file(watch_err).find("waiting for") == std::string::npos)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    prog = run("HCC_SNAPSHOT=0.5 HCC_OUTPUT_DIR=" + shell_quote(out) + " " + shell_quote(exe));
  });
  RunResult w = run("timeout 120 " + shell_quote(report_bin()) + " --watch " + shell_quote(out) + " --top 3 2>" +
                    shell_quote(watch_err));
  watch_ended = true;
  t.join();
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
  EXPECT_EQ(occurrences(final_block, "  main"), 3u) << final_block;  // --top 3: main → work, main → now, main
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

// hcc's end-of-run line ("hcc: profile written to …") starts on a line of
// its own when stdout and stderr are the same file or pipe and the program's
// last output had no newline; the program's own bytes are unchanged, and
// nothing is added when its output ended a line or went elsewhere.
#include <gtest/gtest.h>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

struct Built {
  std::string dir, app;
};

const Built &no_newline_app() {
  static const Built b = [] {
    Built x;
    // One directory per test: ctest runs each test in a process of its own,
    // in parallel, and a shared one would be emptied under another's feet.
    x.dir = scratch_dir(std::string("end-line-") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    x.app = x.dir + "/app";
    const RunResult r = run(shell_quote(hcc_bin()) + " --hcc-compiler=gcc --hcc-functions=all -O1 " +
                            shell_quote(programs_dir() + "/no_newline.c") + " -o " + shell_quote(x.app));
    EXPECT_EQ(r.status, 0) << r.err;
    return x;
  }();
  return b;
}

// Runs `redirect` (a shell fragment using $APP and $OUT) and returns the file $OUT.
std::string run_into_file(const std::string &name, const std::string &args, const std::string &redirect) {
  const Built &b = no_newline_app();
  const std::string prof = b.dir + "/prof-" + name, out = b.dir + "/" + name + ".txt";
  run("rm -rf " + shell_quote(prof));
  const RunResult r = run("cd " + shell_quote(b.dir) + " && APP=" + shell_quote(b.app + args) + " OUT=" +
                          shell_quote(out) + " HCC_OUTPUT_DIR=" + shell_quote(prof) + " sh -c " + shell_quote(redirect));
  EXPECT_EQ(r.status, 0) << r.err;
  return read_file(out);
}

std::string written(const std::string &name) {
  return "hcc: profile written to " + no_newline_app().dir + "/prof-" + name + "/profile.cubex\n";
}

TEST(EndOfRunLine, SameFileWithoutANewlineGetsOneBeforeHccsLine) {
  EXPECT_EQ(run_into_file("file", "", "$APP > $OUT 2>&1"), "sum 45, no newline\n" + written("file"));
}

TEST(EndOfRunLine, SamePipeWithoutANewlineGetsOneBeforeHccsLine) {
  EXPECT_EQ(run_into_file("pipe", "", "$APP 2>&1 | cat > $OUT"), "sum 45, no newline\n" + written("pipe"));
}

TEST(EndOfRunLine, OutputEndingALineGetsNoBlankLine) {
  EXPECT_EQ(run_into_file("nl", " nl", "$APP > $OUT 2>&1"), "sum 45, done\n" + written("nl"));
  EXPECT_EQ(run_into_file("nlpipe", " nl", "$APP 2>&1 | cat > $OUT"), "sum 45, done\n" + written("nlpipe"));
}

TEST(EndOfRunLine, SeparateFilesAreLeftAsTheyAre) {
  const std::string err = run_into_file("apart", "", "$APP > $OUT.stdout 2> $OUT");
  EXPECT_EQ(err, written("apart"));
  EXPECT_EQ(read_file(no_newline_app().dir + "/apart.txt.stdout"), "sum 45, no newline");
}

// A terminal (script(1) gives the program a pseudo-terminal, which turns
// each "\n" into "\r\n"): the unfinished line is ended before hcc's.
TEST(EndOfRunLine, TerminalWithoutANewlineGetsOneBeforeHccsLine) {
  if (run("command -v script").status != 0) GTEST_SKIP() << "script(1) (bsdutils) is not installed";
  const std::string got = run_into_file("tty", "", "script -qec \"$APP\" /dev/null > $OUT");
  std::string want = "sum 45, no newline\n" + written("tty");
  std::string crlf;
  for (char c : want) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(got, crlf);
}

}  // namespace
}  // namespace hcc::e2e

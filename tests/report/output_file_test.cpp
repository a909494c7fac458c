// hcc-report -o FILE on a shared machine (issue 40, item 4): the name is
// written through a temporary renamed onto it, never through a link. Before,
// std::ofstream followed a symbolic link planted at the name (also one
// another user planted in a sticky directory, with
// fs.protected_symlinks=0) and wrote into the file a planted hard link
// shares.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "cubex.hpp"
#include "other_user.hpp"
#include "report_run.hpp"
#include "test_util.hpp"

using namespace hcc_test;

namespace {

std::string read(const std::string &path) {
  std::ifstream f(path);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

long lines(const std::string &s) { return std::count(s.begin(), s.end(), '\n'); }

// hcc-report VIEW PROFILE -o OUT, killed after 20 s (a FIFO used to block).
ReportResult write_view(const TempDir &d, const std::string &view, const std::string &out) {
  const std::string err = d.file("err.txt");
  return run_capturing("timeout -s KILL 20 " + quote(HCC_REPORT_EXE) + " " + view + " " + quote(d.file("p.cubex")) +
                           " -o " + quote(out) + " 2>" + quote(err),
                       err);
}

// Every view that takes -o.
const char *const kViews[] = {"--plan", "--suggest-filter", "--html", "--callgraph dot"};

// The directory holds exactly `names` (no temporary was left behind).
void expect_only(const std::string &dir, std::vector<std::string> names) {
  std::vector<std::string> seen;
  for (const auto &e : fs::directory_iterator(dir)) seen.push_back(e.path().filename().string());
  std::sort(seen.begin(), seen.end());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(seen, names);
}

TEST(OutputFile, ALinkAtTheNameIsRefusedAndWhatItLeadsToIsKept) {
  TempDir d;
  write_cubex(sample_profile(), d.file("p.cubex"));
  fs::create_directory(d.file("out"));
  put_file(d.file("victim.txt"), "precious\n");
  const std::string out = d.file("out/hcc.plan");
  fs::create_symlink(d.file("victim.txt"), out);
  for (const char *view : kViews) {
    SCOPED_TRACE(view);
    const ReportResult r = write_view(d, view, out);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("cannot write " + out + ": it is a symbolic link (-o does not write through links"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(read(d.file("victim.txt")), "precious\n");
    EXPECT_TRUE(fs::is_symlink(out));
    expect_only(d.file("out"), {"hcc.plan"});
  }
}

// A hard link shares the file: writing into it wrote the other name's
// file too. The rename gives the name a file of its own.
TEST(OutputFile, AHardLinkAtTheNameIsReplacedNotWrittenThrough) {
  TempDir d;
  write_cubex(sample_profile(), d.file("p.cubex"));
  put_file(d.file("victim.txt"), "precious\n");
  const std::string out = d.file("hcc.plan");
  ASSERT_EQ(::link(d.file("victim.txt").c_str(), out.c_str()), 0);
  const ReportResult r = write_view(d, "--plan", out);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(d.file("victim.txt")), "precious\n");
  EXPECT_EQ(read(out).rfind("# hcc plan written by hcc-report --plan from ", 0), 0u) << read(out);
  EXPECT_EQ(fs::hard_link_count(d.file("victim.txt")), 1u);
}

TEST(OutputFile, AFifoAtTheNameIsRefusedAtOnce) {
  TempDir d;
  write_cubex(sample_profile(), d.file("p.cubex"));
  const std::string out = d.file("out.html");
  ASSERT_EQ(::mkfifo(out.c_str(), 0600), 0);
  for (const char *view : kViews) {
    SCOPED_TRACE(view);
    const ReportResult r = write_view(d, view, out);
    EXPECT_EQ(r.status, 2) << "137 is the timeout: hcc-report opened the FIFO and waited\n" << r.err;
    EXPECT_NE(r.err.find("cannot write " + out + ": it is a FIFO, not a regular file"), std::string::npos) << r.err;
  }
}

// The user's own file is replaced whole, keeping its mode; nothing else is
// left in the directory.
TEST(OutputFile, AnOwnFileIsReplacedWholeKeepingItsMode) {
  TempDir d;
  write_cubex(sample_profile(), d.file("p.cubex"));
  fs::create_directory(d.file("out"));
  const std::string out = d.file("out/filter.txt");
  put_file(out, std::string(100000, 'x'));
  ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
  const ReportResult r = write_view(d, "--suggest-filter", out);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read(out);
  EXPECT_EQ(text.rfind("# Filter suggested by hcc-report --suggest-filter from ", 0), 0u) << text;
  EXPECT_EQ(text.find('x' + std::string(10, 'x')), std::string::npos);  // none of the old bytes remain
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  expect_only(d.file("out"), {"filter.txt"});
}

// The attack of the issue: another user plants hcc.plan in a sticky
// directory both can write (/tmp itself), as a link to a file of the user
// who runs `hcc-report --plan … -o hcc.plan` there, or as a file of their
// own. Needs root (to create that user) and fs.protected_symlinks=0 to fail
// without the fix (with 1 the kernel refuses to follow the link).
TEST(OutputFile, NamesPlantedByAnotherUserInAStickyDirectoryAreRefused) {
  std::string why;
  const uid_t other = hcc::test::other_user(why);
  if (other == uid_t(-1)) GTEST_SKIP() << why;
  TempDir d;
  ASSERT_EQ(::chmod(d.path.c_str(), 0755), 0);
  write_cubex(sample_profile(), d.file("p.cubex"));
  const std::string shared = d.file("shared");
  fs::create_directory(shared);
  ASSERT_EQ(::chmod(shared.c_str(), 01777), 0);
  put_file(d.file("victim.txt"), "precious\n");
  ASSERT_EQ(hcc::test::run_as_other_user("ln -s " + d.file("victim.txt") + " " + shared + "/hcc.plan && echo x >" +
                                         shared + "/theirs.plan"),
            0);
  const ReportResult link = write_view(d, "--plan", shared + "/hcc.plan");
  EXPECT_EQ(link.status, 2) << link.err;
  EXPECT_NE(link.err.find("it is a symbolic link"), std::string::npos) << link.err;
  EXPECT_EQ(read(d.file("victim.txt")), "precious\n");
  const ReportResult theirs = write_view(d, "--plan", shared + "/theirs.plan");
  EXPECT_EQ(theirs.status, 2) << theirs.err;
  EXPECT_NE(theirs.err.find("it belongs to uid " + std::to_string(other) + " (-o replaces only your own files)"),
            std::string::npos)
      << theirs.err;
  EXPECT_EQ(read(shared + "/theirs.plan"), "x\n");
  expect_only(shared, {"hcc.plan", "theirs.plan"});
}

}  // namespace

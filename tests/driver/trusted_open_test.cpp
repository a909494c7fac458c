// Opening plans and filter files without following planted links
// (instrumentor/driver/trusted_open.hpp), and filter errors that leave a
// file's text out (filter_texts.hpp). The links a second user plants are
// made here and handed over with lchown; without root those cases skip.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "../support/other_user.hpp"
#include "filter_texts.hpp"
#include "test_util.hpp"
#include "trusted_open.hpp"

namespace hcc::driver {
namespace {

void write(const std::string &path, const std::string &text) { std::ofstream(path) << text; }

std::string read_fd(int fd) {
  std::string s;
  char buf[256];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) s.append(buf, size_t(n));
  return s;
}

// Links of your own, relative and absolute, in a directory on the way and
// at the name itself, are followed to the file; what the caller judges is
// the file reached and the directory that holds it, not the first one.
TEST(TrustedOpen, YourOwnLinksAreFollowedToTheFileAndItsDirectory) {
  hcc_test::ScratchDir d;
  ASSERT_EQ(::mkdir((d / "real").c_str(), 0755), 0);
  write(d / "real/plan", "exclude x\n");
  ASSERT_EQ(::symlink("real", (d / "dirlink").c_str()), 0);                  // a directory on the way
  ASSERT_EQ(::symlink((d / "dirlink/plan").c_str(), (d / "abs").c_str()), 0);  // at the name, absolute
  ASSERT_EQ(::symlink("abs", (d / "rel").c_str()), 0);                       // a link to that link
  const OpenedFile f = open_through_trusted_links(d / "rel");
  ASSERT_GE(f.fd, 0) << f.why;
  EXPECT_TRUE(S_ISREG(f.st.st_mode));
  EXPECT_EQ(read_fd(f.fd), "exclude x\n");
  EXPECT_EQ(f.holder_name, d / "real");
  struct stat real {};
  ASSERT_EQ(::stat((d / "real").c_str(), &real), 0);
  EXPECT_EQ(f.holder.st_ino, real.st_ino);
}

TEST(TrustedOpen, NothingThereIsENOENTAndAFifoOpensWithoutWaiting) {
  hcc_test::ScratchDir d;
  ASSERT_EQ(::symlink("missing", (d / "dangling").c_str()), 0);
  for (const std::string &p : {d / "none", d / "dangling", d / "nodir/plan"}) {
    const OpenedFile f = open_through_trusted_links(p);
    EXPECT_EQ(f.fd, -1) << p;
    EXPECT_EQ(f.error, ENOENT) << p;
    EXPECT_FALSE(f.link_refused) << p;
  }
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
  const OpenedFile f = open_through_trusted_links(d / "fifo");  // returns at once: no writer needed
  ASSERT_GE(f.fd, 0) << f.why;
  EXPECT_TRUE(S_ISFIFO(f.st.st_mode));
}

// Another user's link in a sticky directory (as /tmp), at the name or as a
// directory on the way, is refused by its owner, whatever
// fs.protected_symlinks says; nothing behind it is opened.
TEST(TrustedOpen, AnotherUsersLinkAtTheNameOrOnTheWayIsRefused) {
  std::string why;
  const uid_t other = hcc::test::other_user(why);
  if (other == static_cast<uid_t>(-1)) GTEST_SKIP() << why;
  hcc_test::ScratchDir d;
  ASSERT_EQ(::mkdir((d / "secret").c_str(), 0700), 0);
  write(d / "secret/plan", "mine\n");
  ASSERT_EQ(::mkdir((d / "shared").c_str(), 0777), 0);
  ASSERT_EQ(::chmod((d / "shared").c_str(), 01777), 0);
  ASSERT_EQ(::symlink((d / "secret/plan").c_str(), (d / "shared/hcc.plan").c_str()), 0);
  ASSERT_EQ(::symlink((d / "secret").c_str(), (d / "shared/dir").c_str()), 0);
  for (const char *name : {"hcc.plan", "dir"})
    ASSERT_EQ(::lchown((d / "shared/" + name).c_str(), other, other), 0) << name;
  const std::string expected = " is a symbolic link owned by uid " + std::to_string(other) +
                               ", neither you, root nor the owner of its directory: not followed";
  OpenedFile f = open_through_trusted_links(d / "shared/hcc.plan");
  EXPECT_EQ(f.fd, -1);
  EXPECT_TRUE(f.link_refused);
  EXPECT_EQ(f.why, "'" + d / "shared/hcc.plan" + "'" + expected);
  f = open_through_trusted_links(d / "shared/dir/plan");
  EXPECT_EQ(f.fd, -1);
  EXPECT_TRUE(f.link_refused);
  EXPECT_EQ(f.why, "'" + d / "shared/dir" + "'" + expected);
  ::chmod((d / "shared").c_str(), 0755);
}

TEST(FilterTexts, AParseErrorKeepsFileAndLineAndDropsTheText) {
  EXPECT_EQ(without_file_text("a.filt:12: unknown keyword 'password=hunter2'", "a.filt", "REASON"),
            "a.filt:12: not a valid filter line (not shown: REASON)");
  EXPECT_EQ(without_file_text("a.filt: something 'x'", "a.filt", "REASON"),
            "a.filt: not a valid filter line (not shown: REASON)");
  EXPECT_EQ(without_file_text("other:3: 'x'", "a.filt", "REASON"), "a.filt: not a valid filter line (not shown: REASON)");
}

// The copy the tool reads is the text as it was added, from its start,
// and can no longer be changed through the descriptor.
TEST(FilterTexts, ACopyHoldsTheTextAndIsSealed) {
  FilterTexts texts;
  std::string error;
  const FilterText *t = texts.add("dir/hcc.plan", "exclude a\n", error);
  ASSERT_NE(t, nullptr) << error;
  EXPECT_EQ(t->argument(), "--filter-fd=" + std::to_string(t->fd) + ":dir/hcc.plan");
  EXPECT_EQ(::pread(t->fd, nullptr, 0, 0), 0);
  char buf[32] = {};
  EXPECT_EQ(::pread(t->fd, buf, sizeof buf, 0), 10);
  EXPECT_EQ(std::string(buf), "exclude a\n");
  EXPECT_EQ(::pwrite(t->fd, "X", 1, 0), -1);
  EXPECT_EQ(errno, EPERM);
  EXPECT_NE(::fcntl(t->fd, F_GETFD) & FD_CLOEXEC, 0) << "only the tool may inherit it";
}

}  // namespace
}  // namespace hcc::driver

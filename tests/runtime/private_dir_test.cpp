// The private-directory rule (runtime/core/private_dir.hpp) that the
// instrumentation cache and the server's socket directory share: what is
// refused, and that nothing is written or read through a planted name.
#include "core/private_dir.hpp"
#include "core/safe_path.hpp"
#include "../support/other_user.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace hcc::rt {
namespace {

namespace fs = std::filesystem;

class PrivateDir : public ::testing::Test {
 protected:
  void SetUp() override {
    char templ[] = "/tmp/hcc-private-dir-XXXXXX";
    ASSERT_NE(::mkdtemp(templ), nullptr);
    root_ = templ;
  }
  void TearDown() override { fs::remove_all(root_); }

  static std::string slurp(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static mode_t mode_of(const std::string &path) {
    struct stat st;
    return ::lstat(path.c_str(), &st) == 0 ? st.st_mode & 07777 : 0;
  }
  std::string root_;
};

TEST_F(PrivateDir, MissingComponentsAreMade0700AndTheDirectoryIsUsed) {
  std::string error;
  bool refused = true;
  FdGuard fd(open_private_dir(root_ + "/a/b", error, kOthersMayWrite, &refused));
  ASSERT_GE(fd.fd, 0) << error;
  EXPECT_FALSE(refused);
  EXPECT_EQ(mode_of(root_ + "/a"), 0700u);
  EXPECT_EQ(mode_of(root_ + "/a/b"), 0700u);
}

TEST_F(PrivateDir, AGroupOrOtherWritableDirectoryIsRefused) {
  ASSERT_EQ(::mkdir((root_ + "/shared").c_str(), 0700), 0);
  ASSERT_EQ(::chmod((root_ + "/shared").c_str(), 01777), 0);
  std::string error;
  bool refused = false;
  EXPECT_EQ(open_private_dir(root_ + "/shared", error, kOthersMayWrite, &refused), -1);
  EXPECT_TRUE(refused);
  EXPECT_EQ(error, "writable by group or others");
  // Readable by others is fine for the cache, not for the socket directory.
  ASSERT_EQ(::chmod((root_ + "/shared").c_str(), 0755), 0);
  FdGuard ok(open_private_dir(root_ + "/shared", error));
  EXPECT_GE(ok.fd, 0) << error;
  EXPECT_EQ(open_private_dir(root_ + "/shared", error, 077), -1);
  EXPECT_EQ(error, "readable or writable by group or others");
}

TEST_F(PrivateDir, ADirectoryOrSubdirectoryAnotherUserOwnsIsRefused) {
  std::string why;
  const uid_t attacker = hcc::test::other_user(why);
  if (attacker == static_cast<uid_t>(-1)) GTEST_SKIP() << why;
  ASSERT_EQ(::mkdir((root_ + "/theirs").c_str(), 0700), 0);
  ASSERT_EQ(::chown((root_ + "/theirs").c_str(), attacker, attacker), 0);
  std::string error;
  bool refused = false;
  EXPECT_EQ(open_private_dir(root_ + "/theirs", error, kOthersMayWrite, &refused), -1);
  EXPECT_TRUE(refused);
  EXPECT_EQ(error, "owned by uid " + std::to_string(attacker));

  FdGuard mine(open_private_dir(root_ + "/mine", error));
  ASSERT_GE(mine.fd, 0) << error;
  ASSERT_EQ(::mkdir((root_ + "/mine/ab").c_str(), 0700), 0);
  ASSERT_EQ(::chown((root_ + "/mine/ab").c_str(), attacker, attacker), 0);
  EXPECT_EQ(open_private_subdir_at(mine.fd, "ab", error), -1);
  EXPECT_EQ(error, "'ab' owned by uid " + std::to_string(attacker));
  // A fresh one is made 0700 and used.
  FdGuard pch(open_private_subdir_at(mine.fd, "pch", error));
  EXPECT_GE(pch.fd, 0) << error;
  EXPECT_EQ(mode_of(root_ + "/mine/pch"), 0700u);
}

TEST_F(PrivateDir, ALinkWhereASubdirectoryBelongsIsNotFollowed) {
  std::string error;
  FdGuard mine(open_private_dir(root_ + "/mine", error));
  ASSERT_GE(mine.fd, 0) << error;
  ASSERT_EQ(::mkdir((root_ + "/elsewhere").c_str(), 0700), 0);
  ASSERT_EQ(::symlink((root_ + "/elsewhere").c_str(), (root_ + "/mine/pch").c_str()), 0);
  EXPECT_EQ(open_private_subdir_at(mine.fd, "pch", error), -1);
  EXPECT_NE(error.find("cannot open 'pch'"), std::string::npos) << error;
}

// A planted `<name>.tmp<pid>` link to a file the user may write: the file
// keeps its bytes, `name` gets the new text.
TEST_F(PrivateDir, ReplacingAFileNeverWritesThroughAPlantedTemporaryName) {
  const std::string victim = root_ + "/victim";
  std::ofstream(victim) << "keep these bytes\n";
  ::chmod(victim.c_str(), 0600);
  std::string error;
  FdGuard dir(open_private_dir(root_ + "/cache", error));
  ASSERT_GE(dir.fd, 0) << error;
  const std::string planted = root_ + "/cache/entry.tmp" + std::to_string(::getpid());
  ASSERT_EQ(::symlink(victim.c_str(), planted.c_str()), 0);
  ASSERT_TRUE(replace_file_at(dir.fd, "entry", "new entry\n", error)) << error;
  EXPECT_EQ(slurp(victim), "keep these bytes\n");
  EXPECT_EQ(slurp(root_ + "/cache/entry"), "new entry\n");
  EXPECT_EQ(mode_of(root_ + "/cache/entry"), 0600u);
  EXPECT_TRUE(fs::is_symlink(planted));  // skipped, not used
}

TEST_F(PrivateDir, ReadingRefusesLinksFifosLargeFilesAndOtherUsersFiles) {
  std::string error, text;
  FdGuard dir(open_private_dir(root_ + "/cache", error));
  ASSERT_GE(dir.fd, 0) << error;
  ASSERT_TRUE(replace_file_at(dir.fd, "ok", "0123456789", error)) << error;
  EXPECT_TRUE(read_private_file_at(dir.fd, "ok", text, error, 10)) << error;
  EXPECT_EQ(text, "0123456789");
  EXPECT_FALSE(read_private_file_at(dir.fd, "ok", text, error, 9));
  EXPECT_EQ(error, "larger than 9 bytes");

  ASSERT_EQ(::symlink((root_ + "/cache/ok").c_str(), (root_ + "/cache/link").c_str()), 0);
  EXPECT_FALSE(read_private_file_at(dir.fd, "link", text, error, 100));
  EXPECT_FALSE(private_file_exists_at(dir.fd, "link"));

  ASSERT_EQ(::mkfifo((root_ + "/cache/fifo").c_str(), 0600), 0);
  EXPECT_FALSE(read_private_file_at(dir.fd, "fifo", text, error, 100));  // and does not block
  EXPECT_EQ(error, "not a regular file");

  ASSERT_EQ(::chmod((root_ + "/cache/ok").c_str(), 0666), 0);
  EXPECT_FALSE(read_private_file_at(dir.fd, "ok", text, error, 100));
  EXPECT_EQ(error, "writable by group or others");
  EXPECT_FALSE(private_file_exists_at(dir.fd, "ok"));

  std::string why;
  const uid_t attacker = hcc::test::other_user(why);
  if (attacker == static_cast<uid_t>(-1)) GTEST_SKIP() << why;
  ASSERT_EQ(::chmod((root_ + "/cache/ok").c_str(), 0600), 0);
  ASSERT_EQ(::chown((root_ + "/cache/ok").c_str(), attacker, attacker), 0);
  EXPECT_FALSE(read_private_file_at(dir.fd, "ok", text, error, 100));
  EXPECT_EQ(error, "owned by uid " + std::to_string(attacker));
  EXPECT_FALSE(private_file_exists_at(dir.fd, "ok"));
}

}  // namespace
}  // namespace hcc::rt

// io::read_regular_file (io/regular_file.hpp): only regular files, never
// past the caller's limit, and never a wait: each refusal below is one that
// hung, spun or silently read nothing before (issue 28, item 4). A hang
// shows as the CTest time-out (60 s), far beyond anything these take.
#include "io/regular_file.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {
namespace fs = std::filesystem;
using hcc::io::read_regular_file;

// A fresh directory for one test.
std::string scratch(const std::string &name) {
  const fs::path dir = fs::temp_directory_path() / ("hcc-io-test-" + std::to_string(::getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

TEST(RegularFile, ReadsAWholeFile) {
  const std::string path = scratch("whole") + "/f.txt";
  std::ofstream(path, std::ios::binary) << std::string("exclude tiny\n\0x", 15);
  std::string out, why;
  ASSERT_TRUE(read_regular_file(path, 1024, out, &why)) << why;
  EXPECT_EQ(out, std::string("exclude tiny\n\0x", 15));
}

TEST(RegularFile, AFifoWithoutAWriterIsRefusedNotWaitedFor) {
  const std::string path = scratch("fifo") + "/f.fifo";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string out = "old", why;
  EXPECT_FALSE(read_regular_file(path, 1024, out, &why));
  EXPECT_EQ(why, "not a regular file (a FIFO)");
  EXPECT_EQ(out, "");
}

TEST(RegularFile, DevZeroBehindASymlinkIsRefused) {
  const std::string path = scratch("zero") + "/filter.tau";
  fs::create_symlink("/dev/zero", path);
  std::string out, why;
  EXPECT_FALSE(read_regular_file(path, 1024, out, &why));
  EXPECT_EQ(why, "not a regular file (a character device)");
}

TEST(RegularFile, ADirectoryIsRefusedNotReadAsEmpty) {
  const std::string dir = scratch("dir");
  std::string out, why;
  EXPECT_FALSE(read_regular_file(dir, 1024, out, &why));
  EXPECT_EQ(why, "not a regular file (a directory)");
}

TEST(RegularFile, AFileOverTheLimitIsRefusedAndOneAtItIsRead) {
  const std::string dir = scratch("limit");
  // Sparse: 16 MiB + 1 byte that take no room on disk.
  const std::string big = dir + "/big";
  int fd = ::open(big.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, off_t(hcc::io::kFilterFileLimit) + 1), 0);
  ::close(fd);
  std::string out, why;
  EXPECT_FALSE(read_regular_file(big, hcc::io::kFilterFileLimit, out, &why));
  EXPECT_EQ(why, "larger than the 16 MiB limit");
  EXPECT_EQ(out.size(), 0u);

  const std::string exact = dir + "/exact";
  std::ofstream(exact, std::ios::binary) << std::string(100, 'x');
  EXPECT_TRUE(read_regular_file(exact, 100, out, &why)) << why;
  EXPECT_EQ(out.size(), 100u);
  EXPECT_FALSE(read_regular_file(exact, 99, out, &why));
  EXPECT_EQ(why, "larger than the 99 bytes limit");
}

// /proc files are regular files that report a size of 0: the limit is
// enforced on what is read, not on what fstat says.
TEST(RegularFile, ProcFilesAreReadAndStillBounded) {
  std::string out, why;
  ASSERT_TRUE(read_regular_file("/proc/self/cmdline", hcc::io::kProcFileLimit, out, &why)) << why;
  EXPECT_NE(out.find("hcc_io_tests"), std::string::npos) << out;
  ASSERT_TRUE(read_regular_file("/proc/self/status", hcc::io::kProcFileLimit, out, &why)) << why;
  ASSERT_GT(out.size(), 20u);
  EXPECT_FALSE(read_regular_file("/proc/self/status", 20, out, &why));
  EXPECT_EQ(why, "larger than the 20 bytes limit");
}

TEST(RegularFile, AMissingFileSaysSo) {
  std::string out, why;
  EXPECT_FALSE(read_regular_file(scratch("missing") + "/none", 1024, out, &why));
  EXPECT_EQ(why, "No such file or directory");
}

}  // namespace

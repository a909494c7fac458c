// Programs that use libxml2 or OpenSSL's libcrypto themselves, built through
// hcc: libhcc loads its CUBE writer (and libxml2, libarchive) only when it
// writes the profile, after the program has cleaned those libraries up.
// Their output is the plain build's and their profile is written and read
// back with the program's own calls in it.
#include <gtest/gtest.h>

#include <filesystem>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

struct Case {
  std::string source, pkg, function;
  long long visits;
};

void expect_like_plain_with_profile(const Case &c) {
  const std::string dir = scratch_dir("own-" + c.pkg);
  const std::string src = shell_quote(programs_dir() + "/" + c.source);
  const std::string libs = " $(pkg-config --cflags --libs " + c.pkg + ")";
  const RunResult plain_build = run("gcc -O1 " + src + " -o " + dir + "/plain" + libs);
  ASSERT_EQ(plain_build.status, 0) << plain_build.err;
  const RunResult hcc_build =
      run(shell_quote(hcc_bin()) + " --hcc-compiler=gcc --hcc-functions=all -O1 " + src + " -o " + dir + "/instrumented" + libs);
  ASSERT_EQ(hcc_build.status, 0) << hcc_build.err;

  const RunResult plain = run(dir + "/plain");
  const RunResult inst = run("HCC_OUTPUT_DIR=" + dir + "/out " + dir + "/instrumented");
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(inst.status, plain.status) << inst.err;
  EXPECT_EQ(inst.out, plain.out);
  EXPECT_EQ(inst.err, "hcc: profile written to " + dir + "/out/profile.cubex\n");
  const Profile p = Profile::load(dir + "/out");
  EXPECT_EQ(p.visits("main"), 1);
  EXPECT_EQ(p.total_visits(c.function), c.visits) << c.function;
}

TEST(ProgramWithItsOwnLibraries, Libxml2CleanedUpBeforeExitKeepsItsOutputAndProfile) {
  expect_like_plain_with_profile({"own_libxml2.c", "libxml-2.0", "count_item", 3});
}

TEST(ProgramWithItsOwnLibraries, OpensslCleanedUpBeforeExitKeepsItsOutputAndProfile) {
  expect_like_plain_with_profile({"own_openssl.c", "libcrypto", "digest", 2});
}

}  // namespace
}  // namespace hcc::e2e

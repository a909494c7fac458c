// The include options that make the compiler read the shadow tree first.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "args.hpp"
#include "header_shadow.hpp"

using namespace hcc::driver;
namespace fs = std::filesystem;

namespace {

// A scratch project with include/ and src/, and a shadow tree holding a
// copy of include/ only.
class ShadowArgs : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/hcc-shadow-test-XXXXXX";
    dir_ = mkdtemp(tmpl);
    fs::create_directories(dir_ + "/include/geo");
    fs::create_directories(dir_ + "/src");
    root_ = dir_ + "/root";
    real_ = fs::canonical(dir_).string();
    fs::create_directories(root_ + real_ + "/include/geo");
    old_ = fs::current_path();
    fs::current_path(dir_);
  }
  void TearDown() override {
    fs::current_path(old_);
    remove_tree(dir_);
  }
  std::vector<std::string> shadowed(const std::vector<std::string> &args) {
    return shadow_include_args(args, classify(args), root_);
  }
  std::string dir_, root_, real_;
  fs::path old_;
};

TEST_F(ShadowArgs, CopyDirectoryComesFirstForEveryIncludeSpelling) {
  const std::string s = root_ + real_ + "/include";
  EXPECT_EQ(shadowed({"-O2", "-I", "include", "-c", "x.c"}),
            (std::vector<std::string>{"-O2", "-I", s, "-I", "include", "-c", "x.c"}));
  EXPECT_EQ(shadowed({"-Iinclude", "-c", "x.c"}),
            (std::vector<std::string>{"-I" + s, "-Iinclude", "-c", "x.c"}));
  EXPECT_EQ(shadowed({"-iquote", "include", "-c", "x.c"}),
            (std::vector<std::string>{"-iquote", s, "-iquote", "include", "-c", "x.c"}));
  EXPECT_EQ(shadowed({"--include-directory=" + real_ + "/include/geo/..", "-c", "x.c"}),
            (std::vector<std::string>{"--include-directory=" + s,
                                      "--include-directory=" + real_ + "/include/geo/..", "-c", "x.c"}));
}

TEST_F(ShadowArgs, DirectoriesWithoutCopiesAndSystemDirectoriesStayAsTheyAre) {
  EXPECT_EQ(shadowed({"-Isrc", "-isystem", "include", "-I", "/usr/include", "-c", "x.c"}),
            (std::vector<std::string>{"-Isrc", "-isystem", "include", "-I", "/usr/include", "-c", "x.c"}));
}

TEST_F(ShadowArgs, ForceIncludedHeaderNamesItsCopy) {
  std::ofstream(dir_ + "/include/pre.h") << "\n";
  std::ofstream(root_ + real_ + "/include/pre.h") << "#line 1 \"include/pre.h\"\n\n";
  EXPECT_EQ(shadowed({"-include", "include/pre.h", "-c", "x.c"}),
            (std::vector<std::string>{"-include", root_ + real_ + "/include/pre.h", "-c", "x.c"}));
  EXPECT_EQ(shadow_dir_of(root_, "include"), root_ + real_ + "/include");
  EXPECT_EQ(shadow_dir_of(root_, "src"), "");
}

TEST_F(ShadowArgs, CpathDirectoriesWithCopiesGetTheirCopyAfterTheCommandLine) {
  // CPATH's include/ has a copy, and so has the empty element (the working
  // directory, the project, in the tree as include/'s parent), in CPATH's
  // order; src/ and a missing directory add nothing.
  EXPECT_EQ(shadow_cpath_args("src:" + dir_ + "/include::" + dir_ + "/missing", root_),
            (std::vector<std::string>{"-I", root_ + real_ + "/include", "-I", root_ + real_}));
  EXPECT_EQ(shadow_cpath_args("src", root_), std::vector<std::string>{});
}

TEST_F(ShadowArgs, RemoveTreeDoesNotFollowLinks) {
  fs::create_symlink(dir_ + "/include", root_ + real_ + "/link-to-include");
  remove_tree(root_);
  EXPECT_FALSE(fs::exists(root_));
  EXPECT_TRUE(fs::exists(dir_ + "/include/geo"));
}

}  // namespace

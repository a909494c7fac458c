// Which compiler runs underneath: explicit choice, prefix mode, language.
#include <gtest/gtest.h>

#include <cstdlib>

#include "compiler_choice.hpp"
#include "paths.hpp"
#include "test_util.hpp"

using namespace hcc::driver;
using Args = std::vector<std::string>;

namespace {

// A PATH holding only fake compilers, restored afterwards.
class FakePath : public ::testing::Test {
 protected:
  void SetUp() override {
    const char *p = std::getenv("PATH");
    saved_ = p ? p : "";
    for (const char *name : {"mycc", "mpicxx", "ccache", "hcc"})
      hcc_test::write_file(bin_ / name, "#!/bin/sh\nexit 0\n", true);
    hcc_test::write_file(bin_ / "notexec", "#!/bin/sh\n", false);
    ::setenv("PATH", bin_.path().c_str(), 1);
  }
  void TearDown() override { ::setenv("PATH", saved_.c_str(), 1); }

  std::string self() const { return hcc_test::fs::canonical(bin_ / "hcc").string(); }

  hcc_test::ScratchDir bin_;
  std::string saved_;
};

}  // namespace

TEST_F(FakePath, PrefixModeTakesAnExecutableFirstArgument) {
  CompilerChoice c = choose_explicit(std::nullopt, nullptr, {"mpicxx", "-O2", "-c", "x.cpp"}, "");
  EXPECT_EQ(c.command, (Args{"mpicxx"}));
  EXPECT_EQ(c.program, bin_ / "mpicxx");
  EXPECT_EQ(c.taken_args, 1u);
  EXPECT_NE(c.how.find("prefix"), std::string::npos);

  c = choose_explicit(std::nullopt, nullptr, {bin_ / "mycc", "-c", "x.c"}, "");
  EXPECT_EQ(c.program, bin_ / "mycc");  // as a path
  EXPECT_EQ(c.taken_args, 1u);
}

TEST_F(FakePath, PrefixModeRejectsOptionsFilesAndNonExecutables) {
  for (Args a : {Args{"-c", "x.c"}, Args{"x.c", "-o", "x"}, Args{"main.o", "-o", "app"},
                 Args{"notexec", "-c", "x.c"}, Args{"nosuchcc", "-c", "x.c"},
                 Args{"@args.rsp"}, Args{}}) {
    CompilerChoice c = choose_explicit(std::nullopt, nullptr, a, "");
    EXPECT_TRUE(c.command.empty()) << (a.empty() ? "<none>" : a[0]);
    EXPECT_EQ(c.taken_args, 0u);
  }
}

TEST_F(FakePath, LauncherTakesTheCompilerAfterIt) {
  CompilerChoice c = choose_explicit(std::nullopt, nullptr, {"ccache", "mycc", "-c", "x.c"}, "");
  EXPECT_EQ(c.command, (Args{"ccache", "mycc"}));
  EXPECT_EQ(c.taken_args, 2u);
}

TEST_F(FakePath, HccNamedFirstIsSkippedNotRecursedInto) {
  CompilerChoice c = choose_explicit(std::nullopt, nullptr, {"hcc", "mycc", "-c", "x.c"}, self());
  EXPECT_EQ(c.command, (Args{"mycc"}));
  EXPECT_EQ(c.taken_args, 2u);
}

TEST_F(FakePath, OptionBeatsEnvironmentBeatsPrefix) {
  CompilerChoice c = choose_explicit(std::string("mycc -m64"), "mpicxx", {"-c", "x.c"}, "");
  EXPECT_EQ(c.command, (Args{"mycc", "-m64"}));
  EXPECT_EQ(c.how, "--hcc-compiler");
  EXPECT_EQ(c.program, bin_ / "mycc");

  c = choose_explicit(std::nullopt, "mpicxx", {"mycc", "-c", "x.c"}, "");
  EXPECT_EQ(c.command, (Args{"mpicxx"}));
  EXPECT_EQ(c.how, "HCC_COMPILER");
  EXPECT_EQ(c.taken_args, 0u);
  EXPECT_NE(c.warning.find("'mycc' looks like a compiler"), std::string::npos) << c.warning;
}

TEST_F(FakePath, ByLanguage) {
  auto by_lang = [](Args a) {
    CompilerChoice c;
    choose_by_language(c, classify(a), "");
    return c.command;
  };
  EXPECT_EQ(by_lang({"-c", "a.c", "b.c"}), Args{"cc"});
  EXPECT_EQ(by_lang({"-c", "a.c", "b.cpp"}), Args{"c++"});
  EXPECT_EQ(by_lang({"-c", "-x", "c++", "a.c"}), Args{"c++"});
  EXPECT_EQ(by_lang({"-c", "a.C"}), Args{"c++"});
  EXPECT_EQ(by_lang({"a.o", "b.o", "-o", "app"}), Args{"c++"});
  EXPECT_EQ(by_lang({"main.c", "util.o", "-o", "app"}), Args{"cc"});
}

TEST_F(FakePath, PathLookupSkipsHccItself) {
  hcc_test::ScratchDir second;
  hcc_test::write_file(second / "hcc", "#!/bin/sh\n", true);
  ::setenv("PATH", (bin_.path() + ":" + second.path()).c_str(), 1);
  auto found = find_program("hcc", self());
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, second / "hcc");
}

// compile_args: from the user's gcc/clang flags to the parser's command line.
#include "compile_args.h"
#include "instrument.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace hcc::rewriter {
namespace {

bool has(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The arguments between the binary name and the fixed tail.
std::vector<std::string> kept(const ClangCommand &c) {
  auto end = std::find(c.argv.begin(), c.argv.end(), "-Wno-unknown-warning-option");
  return std::vector<std::string>(c.argv.begin() + 2, end);
}

TEST(CompileArgs, KeepsWhatChangesTheParse) {
  ClangCommand c = clangCommand(
      "app.cpp", {"-DNDEBUG", "-DX=1", "-UY", "-I", "inc", "-Iinc2", "-isystem", "/opt/inc",
                  "-iquote", "q", "-include", "pre.h", "-std=c++17", "-fno-exceptions",
                  "-fopenmp", "-m32", "-O2", "-g"});
  EXPECT_EQ(kept(c),
            (std::vector<std::string>{"-DNDEBUG", "-DX=1", "-UY", "-I", "inc", "-Iinc2",
                                      "-isystem", "/opt/inc", "-iquote", "q", "-include",
                                      "pre.h", "-std=c++17", "-fno-exceptions", "-fopenmp",
                                      "-m32", "-O2", "-g"}));
  EXPECT_TRUE(c.dropped.empty());
}

TEST(CompileArgs, AddsSyntaxOnlyQuietResourceDirAndLanguage) {
  ClangCommand c = clangCommand("src/app.cc", {});
  ASSERT_GE(c.argv.size(), 8u);
  EXPECT_EQ(c.argv[1], "-fsyntax-only");
  EXPECT_TRUE(has(c.argv, "-Wno-unknown-warning-option"));
  EXPECT_TRUE(has(c.argv, "-Qunused-arguments"));
  EXPECT_TRUE(has(c.argv, "-w"));
  EXPECT_TRUE(has(c.argv, std::string("-resource-dir=") + clangResourceDir()));
  // -x right before the source, which comes last.
  EXPECT_EQ(std::vector<std::string>(c.argv.end() - 3, c.argv.end()),
            (std::vector<std::string>{"-x", "c++", "src/app.cc"}));
  EXPECT_EQ(c.language, "c++");
}

TEST(CompileArgs, DropsWhatClangDoesNotKnow) {
  ClangCommand c = clangCommand("a.c", {"-fipa-pta", "-mno-avx256-split-unaligned-load",
                                        "-fvar-tracking-assignments", "-Wall", "-O3",
                                        "-Wno-maybe-uninitialized"});
  // GCC-only warning names are passed: -Wno-unknown-warning-option quiets them.
  EXPECT_EQ(kept(c), (std::vector<std::string>{"-Wall", "-O3", "-Wno-maybe-uninitialized"}));
  EXPECT_EQ(c.dropped, (std::vector<std::string>{"-fipa-pta", "-mno-avx256-split-unaligned-load",
                                                 "-fvar-tracking-assignments"}));
}

TEST(CompileArgs, DropsOutputsDependencyFilesAndCodegenOnlyOptions) {
  ClangCommand c = clangCommand(
      "a.c", {"-c", "-o", "a.o", "-MD", "-MT", "a.o", "-MF", "a.o.d", "-Wp,-MMD,x.d",
              "-flto=8", "-fplugin=gccplugin.so", "-fprofile-use=/p", "-Werror",
              "-Werror=format", "-pedantic-errors", "-fsanitize=bounds-strict", "-v",
              "other.o", "-DKEEP"});
  EXPECT_EQ(kept(c), (std::vector<std::string>{"-DKEEP"}));
  EXPECT_EQ(c.dropped.size(), 15u);
}

TEST(CompileArgs, ExplicitLanguageWins) {
  ClangCommand c = clangCommand("weird.inc", {"-x", "c"});
  EXPECT_EQ(c.language, "c");
  EXPECT_EQ(c.argv.back(), "weird.inc");
  EXPECT_EQ(std::count(c.argv.begin(), c.argv.end(), "-x"), 1);
}

// Clang 19 knows GCC's standard names, final and draft: passed as written.
TEST(CompileArgs, GccStandardNamesPassAsWritten) {
  for (const char *s : {"-std=c++23", "-std=gnu++23", "-std=c++2b", "-std=c23", "-std=c2x",
                        "--std=c11"}) {
    ClangCommand c = clangCommand("a.cpp", {s});
    EXPECT_TRUE(has(c.argv, s)) << s;
    EXPECT_TRUE(c.dropped.empty()) << s;
  }
}

// Pre-standard C GCC 12 accepts (implicit declarations and int, int/pointer
// conversions) parses: Clang 16+ makes those errors unless told otherwise.
TEST(CompileArgs, LegacyCThatGccAcceptsParses) {
  ClangCommand c = clangCommand("old.c", {});
  for (const char *w : {"-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int",
                        "-Wno-error=int-conversion", "-Wno-error=incompatible-function-pointer-types"})
    EXPECT_TRUE(has(c.argv, w)) << w;
  hcc::rewriter::Options options;
  options.main_file_name = "old.c";
  hcc::rewriter::Result r = hcc::rewriter::instrumentCode(
      "static int cb(int x) { return x; }\n"
      "foo(a) int a; { return a; }\n"
      "int main() { int *p = 5; int (*f)(double) = cb; bar(); (void)p; (void)f; return; }\n",
      "/hcc-test/old.c", {}, options);
  EXPECT_TRUE(r.ok) << (r.messages.empty() ? "" : r.messages.front());
  EXPECT_EQ(r.guards, 3u);
}

TEST(CompileArgs, LanguageFromExtension) {
  EXPECT_EQ(languageOfFile("x.c"), "c");
  for (const char *f : {"x.cc", "x.cpp", "x.cxx", "x.c++", "x.C", "x.cp", "d/x.CPP"})
    EXPECT_EQ(languageOfFile(f), "c++") << f;
  EXPECT_EQ(languageOfFile("x.f90"), "");
  EXPECT_EQ(languageOfFile("x.h"), "");
}

}  // namespace
}  // namespace hcc::rewriter

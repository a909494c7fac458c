// The OpenMP rewriter on the files in rewrite/: each NAME.c is rewritten
// with --openmp=on and compared with NAME.c.expected (input and expected
// output side by side, like tests/instrumentor); the expected output must
// keep every line where it was and compile warning-free (-Wall -Wextra
// -Werror) with gcc and clang. A file may name its compilers on its first
// line, `hcc-test-compilers: gcc clang19` (OpenMP 5.x needs Clang 19; the
// others are compiled with the tests' clang, 14).
#include "instrument.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t lines(const std::string &s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

// The compilers a file asks for on its first line, default gcc and clang.
std::vector<std::string> compilersFor(const std::string &code) {
  const std::string first = code.substr(0, code.find('\n'));
  const size_t at = first.find("hcc-test-compilers:");
  if (at == std::string::npos) return {HCC_OMP_TEST_GCC, HCC_OMP_TEST_CLANG};
  std::vector<std::string> out;
  std::istringstream in(first.substr(at + 19));
  for (std::string w; in >> w;) {
    if (w == "gcc") out.push_back(HCC_OMP_TEST_GCC);
    if (w == "clang") out.push_back(HCC_OMP_TEST_CLANG);
    if (w == "clang19") out.push_back(HCC_OMP_TEST_CLANG19);
  }
  return out;
}

class Rewrite : public ::testing::TestWithParam<std::string> {};

TEST_P(Rewrite, MatchesExpectedAndCompiles) {
  const fs::path in = fs::path(HCC_OMP_REWRITE_DIR) / GetParam();
  const std::string code = readFile(in);
  hcc::rewriter::Options opts;
  opts.openmp = true;
  opts.main_file_name = GetParam();
  hcc::rewriter::Result r = hcc::rewriter::instrumentFile(in.string(), {"-fopenmp"}, opts);
  ASSERT_TRUE(r.ok);
  const std::string expected = readFile(in.string() + ".expected");
  EXPECT_EQ(r.output, expected);
  // `#line 1` plus the file's own lines: nothing moved.
  EXPECT_EQ(lines(r.output), lines(code) + 1);

  fs::create_directories(HCC_OMP_WORK);
  const fs::path out = fs::path(HCC_OMP_WORK) / GetParam();
  std::ofstream(out) << r.output;
  for (const std::string &cc : compilersFor(code)) {
    if (cc.empty()) {
      ADD_FAILURE() << "a compiler " << GetParam() << " asks for was not found at configure time";
      continue;
    }
    // Warnings the user's own code draws are theirs (untouched.c has one
    // for clang); -Werror only where the input is clean under that compiler.
    // The preludes as the driver gives them: the OpenMP one only for code
    // that calls POMP2.
    const std::string preludes = std::string(" -include " HCC_OMP_INCLUDE_DIR "/hcc/detail/inject.h ") +
                                 (readFile(out.string()).find("POMP2_") != std::string::npos
                                      ? "-include " HCC_OMP_INCLUDE_DIR "/hcc/detail/inject_openmp.h "
                                      : "");
    std::string cmd = cc + " -fopenmp -Wall -Wextra -c -x c" + preludes + out.string() + " -o " + out.string() + ".o";
    EXPECT_EQ(std::system((cmd + " 2>" + out.string() + ".err").c_str()), 0) << cmd << "\n"
        << readFile(out.string() + ".err");
    std::string plain = cc + " -fopenmp -Wall -Wextra -c " + in.string() + " -o /dev/null 2>&1";
    if (std::system((plain + " | grep -q warning").c_str()) != 0)
      EXPECT_EQ(readFile(out.string() + ".err"), "") << cc << " warns on the rewritten " << GetParam();
  }
}

INSTANTIATE_TEST_SUITE_P(OpenMP, Rewrite,
                         ::testing::Values("parallel.c", "worksharing.c", "combined.c", "sync.c", "flush.c",
                                           "nesting.c", "locks.c", "untouched.c", "masked.c",
                                           "tasks.c", "doacross.c", "pragma_op.c",
                                           // OpenMP 5.x
                                           "loop.c", "masked_taskloop.c", "scope.c", "utility.c",
                                           "unroll.c", "clauses51.c", "unparsed.c",
                                           // kept whole, re-issued, barriers kept (issue 11)
                                           "kept.c"),
                         [](const auto &info) {
                           std::string n = info.param;
                           return n.substr(0, n.find('.'));
                         });

// The switch: off (and the default, when off) rewrites no directive.
TEST(OpenMPSwitch, OffLeavesDirectivesAlone) {
  const fs::path in = fs::path(HCC_OMP_REWRITE_DIR) / "sync.c";
  hcc::rewriter::Options opts;
  opts.openmp = false;
  hcc::rewriter::Result r = hcc::rewriter::instrumentFile(in.string(), {"-fopenmp"}, opts);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.openmp_directives, 0u);
  EXPECT_EQ(r.output.find("POMP2_"), std::string::npos);
}

// _Pragma("omp …") written in the file is rewritten; one from a macro
// expansion stays as written and --verbose says so.
TEST(OpenMPPragmaOperator, MacroExpansionIsLeftAloneAndSaid) {
  const fs::path in = fs::path(HCC_OMP_REWRITE_DIR) / "pragma_op.c";
  hcc::rewriter::Options opts;
  opts.openmp = true;
  opts.main_file_name = "pragma_op.c";
  hcc::rewriter::Result r = hcc::rewriter::instrumentFile(in.string(), {"-fopenmp"}, opts);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.openmp_directives, 4u);
  bool said = false;
  for (const std::string &m : r.messages)
    said = said || m == "hcc: pragma_op.c:12: leaving an OpenMP directive alone: it comes from a macro expansion";
  EXPECT_TRUE(said);
  EXPECT_NE(r.output.find("\n  PAR_FOR\n"), std::string::npos);
}

// kept.c: --verbose says which combined constructs were kept whole and why.
TEST(OpenMPKeptWhole, VerboseSaysWhy) {
  const fs::path in = fs::path(HCC_OMP_REWRITE_DIR) / "kept.c";
  hcc::rewriter::Options opts;
  opts.openmp = true;
  opts.main_file_name = "kept.c";
  hcc::rewriter::Result r = hcc::rewriter::instrumentFile(in.string(), {"-fopenmp"}, opts);
  ASSERT_TRUE(r.ok);
  std::set<std::string> said(r.messages.begin(), r.messages.end());
  EXPECT_TRUE(said.count("hcc: kept.c:11: omp parallel for kept whole, timed around the statement: an inscan reduction"));
  EXPECT_TRUE(said.count("hcc: kept.c:39: omp parallel for kept whole, timed around the statement: a clause from a macro"));
  // The simd and target directives are re-issued, never preceded by code on their line.
  for (const char *d : {"#pragma omp simd", "#pragma omp target"}) {
    const size_t at = r.output.find(d);
    ASSERT_NE(at, std::string::npos) << d;
    EXPECT_EQ(r.output.compare(at - 2, 2, "//") == 0 || r.output.compare(at - 2, 2, "/*") == 0, true) << d;
  }
}

}  // namespace

// The rewritten output of realistic files must compile with GCC and Clang
// under -Wall -Wextra -Wshadow -Werror, with the prelude the driver
// force-includes. (Compile only: the runtime is not needed for that.)
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace hcc::test {
namespace {

struct Case {
  const char *file;
  unsigned guards;        // functions instrumented, counted by hand
  unsigned setjmp_marks;
};

std::ostream &operator<<(std::ostream &os, const Case &c) { return os << c.file; }

// The flags a file needs, from its first line: "hcc-test-flags: -std=c++17 ...".
std::vector<std::string> flagsOf(const std::string &text) {
  std::string first = text.substr(0, text.find('\n'));
  std::vector<std::string> flags;
  size_t at = first.find("hcc-test-flags:");
  if (at == std::string::npos) return flags;
  std::istringstream in(first.substr(at + 15));
  for (std::string f; in >> f;) flags.push_back(f);
  return flags;
}

// OpenMP files take the clang that has an omp.h here (tests/CMakeLists.txt).
std::vector<std::string> compilersFor(const std::string &file, const std::vector<std::string> &flags) {
  bool is_c = file.size() > 2 && file.compare(file.size() - 2, 2, ".c") == 0;
  bool omp = std::find(flags.begin(), flags.end(), "-fopenmp") != flags.end();
  if (is_c && omp) return {HCC_TEST_GCC, HCC_TEST_OMP_CLANG};
  return is_c ? std::vector<std::string>{HCC_TEST_GCC, HCC_TEST_CLANG}
              : std::vector<std::string>{HCC_TEST_GXX, HCC_TEST_CLANGXX};
}

Process compile(const std::string &compiler, const std::string &file,
            const std::vector<std::string> &flags, bool with_prelude) {
  std::vector<std::string> argv = {compiler, "-Wall", "-Wextra", "-Wshadow", "-Werror"};
  if (with_prelude) {
    argv.push_back("-include");
    argv.push_back(std::string(HCC_TEST_INCLUDE_DIR) + "/hcc/detail/inject.h");
    // As the driver does: the OpenMP prelude only for code that calls POMP2.
    if (readFile(file).find("POMP2_") != std::string::npos) {
      argv.push_back("-include");
      argv.push_back(std::string(HCC_TEST_INCLUDE_DIR) + "/hcc/detail/inject_openmp.h");
    }
  }
  argv.insert(argv.end(), flags.begin(), flags.end());
  for (const char *a : {"-c", "-o", "/dev/null"}) argv.push_back(a);
  argv.push_back(file);
  return run(argv);
}

class RewrittenCompiles : public ::testing::TestWithParam<Case> {};

TEST_P(RewrittenCompiles, WithGccAndClang) {
  const Case &c = GetParam();
  const std::string src = std::string(HCC_TEST_DATA_DIR) + "/" + c.file;
  const std::string text = readFile(src);
  ASSERT_FALSE(text.empty()) << src;
  const std::vector<std::string> flags = flagsOf(text);

  rewriter::Options options;
  options.main_file_name = c.file;
  rewriter::Result r = rewriter::instrumentFile(src, flags, options);
  ASSERT_TRUE(r.ok) << (r.messages.empty() ? "" : r.messages.back());
  EXPECT_EQ(r.guards, c.guards);
  EXPECT_EQ(r.setjmp_marks, c.setjmp_marks);
  EXPECT_EQ(countLines(r.output), countLines(text) + 1);

  TempDir dir;
  const std::string out = dir.write(c.file, r.output);
  for (const std::string &compiler : compilersFor(c.file, flags)) {
    if (compiler.empty()) {
      ADD_FAILURE() << "a compiler for " << c.file << " was not found at configure time";
      continue;
    }
    SCOPED_TRACE(compiler);
    // The original must be clean, or a failure below would prove nothing.
    Process plain = compile(compiler, src, flags, false);
    ASSERT_EQ(plain.status, 0) << plain.out;
    Process rewritten_build = compile(compiler, out, flags, true);
    EXPECT_EQ(rewritten_build.status, 0) << rewritten_build.out;
  }
}

INSTANTIATE_TEST_SUITE_P(Files, RewrittenCompiles,
                         ::testing::Values(Case{"geometry.cpp", 30, 0}, Case{"solver.c", 7, 2},
                                           Case{"tasks.cpp", 15, 0}, Case{"stencil_omp.c", 3, 0},
                                           Case{"legacy.c", 2, 0},
                                           Case{"constant_contexts.cpp", 9, 0}),
                         [](const ::testing::TestParamInfo<Case> &info) {
                           std::string n = info.param.file;
                           for (char &ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace hcc::test

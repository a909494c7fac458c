// Compiler diagnostics name the project's headers exactly as the plain build
// does, in every pipeline hcc has (server, result cache and its hits, early
// start, all of them off), with GCC and with Clang underneath: a #warning in
// a header hcc rewrites, in one it leaves alone, and in one included from a
// header, for a source given as `app.cc`, `./app.cc`, `sub/app.cc` and with
// `-I.`. (GCC says "grid.h" where Clang says "./grid.h"; hcc once printed
// one for the other.)
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {
namespace fs = std::filesystem;

// The lines of the compiler's stderr that name files: warnings and the
// "In file included from" chain.
std::string diagnostics(const std::string &err) {
  std::istringstream in(err);
  std::string out;
  for (std::string l; std::getline(in, l);)
    if (l.find("warning") != std::string::npos || l.find("included from") != std::string::npos ||
        l.rfind("                 from ", 0) == 0)
      out += l + "\n";
  return out;
}

struct Compiler {
  std::string name, cxx;
};

void PrintTo(const Compiler &c, std::ostream *os) { *os << c.cxx; }

class DiagnosticNames : public ::testing::TestWithParam<Compiler> {};

TEST_P(DiagnosticNames, HeadersAreNamedAsWithoutHccInEveryPipeline) {
  const Compiler c = GetParam();
  if (run("command -v " + c.cxx).status != 0) GTEST_SKIP() << c.cxx << " is not installed";
  const std::string dir = scratch_dir("diag-names-" + c.name);
  fs::copy(programs_dir() + "/diag_names", dir, fs::copy_options::recursive);
  fs::copy(programs_dir() + "/diag_names", dir + "/sub", fs::copy_options::recursive);
  const std::vector<std::string> forms = {"app.cc", "./app.cc", "sub/app.cc", "-I. app.cc"};
  const std::vector<std::string> modes = {
      "",  // server, result cache (a miss), early start
      "",  // the same again: a cache hit
      "HCC_SERVER=off", "HCC_CACHE=off", "HCC_EARLY_START=off",
      "HCC_SERVER=off HCC_CACHE=off HCC_EARLY_START=off"};
  const std::string cache = "HCC_CACHE_DIR=" + shell_quote(dir + "/cache") + " ";
  for (const std::string &form : forms) {
    const RunResult plain = run("cd " + shell_quote(dir) + " && " + c.cxx + " -c " + form + " -o plain.o");
    ASSERT_EQ(plain.status, 0) << plain.err;
    const std::string want = diagnostics(plain.err);
    ASSERT_NE(want.find("plain.h warns"), std::string::npos) << plain.err;
    ASSERT_NE(want.find("nested.h warns"), std::string::npos) << plain.err;
    for (const std::string &mode : modes) {
      SCOPED_TRACE(form + " [" + mode + "]");
      const RunResult r = run("cd " + shell_quote(dir) + " && " + cache + mode + " " + shell_quote(hcc_bin()) +
                              " --hcc-compiler=" + c.cxx + " -c " + form + " -o app.o");
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(diagnostics(r.err), want) << r.err;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Compilers, DiagnosticNames,
                         ::testing::Values(Compiler{"gcc", "g++"}, Compiler{"clang", "clang++"}),
                         [](const auto &info) { return info.param.name; });

}  // namespace
}  // namespace hcc::e2e

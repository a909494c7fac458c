// The project's own headers and #included sources (headers/): each main
// file is rewritten with Options::headers; its output and every copy of a
// file it includes are compared with the `.expected` file beside the input
// (input and expected output side by side), no system header has a copy,
// every line stays where it was, and the copies compile with GCC and Clang
// under -Wall -Wextra -Werror with the prelude, read the way the driver
// makes the compiler read them (the instrumentor's shadow tree first).
#include "shadow_tree.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

namespace hcc::test {
namespace {

namespace fs = std::filesystem;

struct Case {
  const char *main;
  std::set<std::string> copies;  // names of the files that get a copy
};

std::ostream &operator<<(std::ostream &os, const Case &c) { return os << c.main; }

std::vector<std::string> flagsOf(const std::string &text) {
  std::string first = text.substr(0, text.find('\n'));
  std::vector<std::string> flags;
  size_t at = first.find("hcc-test-flags:");
  if (at == std::string::npos) return flags;
  std::istringstream in(first.substr(at + 15));
  for (std::string f; in >> f;)
    if (f != "*/") flags.push_back(f);
  return flags;
}

// Runs the test body with the headers/ directory as the working directory,
// so the names the compiler gives the headers ("include/ring.h") are the
// ones in the expected files.
class InDir {
 public:
  explicit InDir(const std::string &dir) : old_(fs::current_path()) { fs::current_path(dir); }
  ~InDir() { fs::current_path(old_); }

 private:
  fs::path old_;
};

class Headers : public ::testing::TestWithParam<Case> {};

TEST_P(Headers, CopiesMatchExpectedAndCompile) {
  const Case &c = GetParam();
  const std::string dir = std::string(HCC_TEST_DATA_DIR) + "/../headers";
  InDir in(dir);
  const std::string code = readFile(c.main);
  const std::vector<std::string> flags = flagsOf(code);
  rewriter::Options options;
  options.main_file_name = c.main;
  options.headers = true;
  rewriter::Result r = rewriter::instrumentFile(c.main, flags, options);
  ASSERT_TRUE(r.ok) << (r.messages.empty() ? "" : r.messages.back());
  EXPECT_EQ(r.output, readFile(std::string(c.main) + ".expected"));

  std::set<std::string> names;
  for (const rewriter::OutputFile &f : r.files) {
    names.insert(f.name);
    const std::string original = readFile(f.name);
    EXPECT_EQ(f.text, readFile(f.name + ".expected")) << f.name;
    EXPECT_EQ(countLines(f.text), countLines(original) + 1) << f.name << ": a line moved";
    EXPECT_EQ(f.path, fs::canonical(f.name).string()) << f.name;
  }
  EXPECT_EQ(names, c.copies);

  // The shadow tree, and a compile that searches it first as the driver
  // arranges: -iquote <tree>/<dir of main> -I <tree>/<include dir> before the
  // originals.
  TempDir tmp;
  const std::string root = tmp.path() + "/shadow";
  std::vector<std::string> notes;
  std::string error;
  ASSERT_TRUE(rewriter::writeShadowTree(root, r.files, fs::canonical(".").string(), notes, error))
      << error;
  const std::string main_copy = tmp.write(c.main, r.output);
  const bool is_c = fs::path(c.main).extension() == ".c";
  for (const std::string &cc : is_c ? std::vector<std::string>{HCC_TEST_GCC, HCC_TEST_CLANG}
                                    : std::vector<std::string>{HCC_TEST_GXX, HCC_TEST_CLANGXX}) {
    if (cc.empty()) {
      ADD_FAILURE() << "a compiler for " << c.main << " was not found at configure time";
      continue;
    }
    SCOPED_TRACE(cc);
    std::vector<std::string> argv = {cc, "-Wall", "-Wextra", "-Werror", "-c", "-o", "/dev/null"};
    Process plain = run([&] {
      auto a = argv;
      a.insert(a.end(), flags.begin(), flags.end());
      a.push_back(c.main);
      return a;
    }());
    ASSERT_EQ(plain.status, 0) << plain.out;
    std::vector<std::string> a = argv;
    a.insert(a.end(), {"-iquote", rewriter::shadowPath(root, fs::canonical(".").string()),
                       "-iquote", ".", "-I", rewriter::shadowPath(root, fs::canonical("include").string()),
                       "-include", std::string(HCC_TEST_INCLUDE_DIR) + "/hcc/detail/inject.h"});
    a.insert(a.end(), flags.begin(), flags.end());
    a.push_back(main_copy);
    Process built = run(a);
    EXPECT_EQ(built.status, 0) << built.out;
    // And it was the copies that were read: their descriptors are in the
    // preprocessed text.
    a.insert(a.begin() + 1, "-E");
    std::replace(a.begin(), a.end(), std::string("/dev/null"), std::string("-"));
    a.erase(std::find(a.begin(), a.end(), std::string("-c")));
    Process pre = run(a);
    for (const rewriter::OutputFile &f : r.files)
      if (f.rewritten)
        EXPECT_NE(pre.out.find("\"" + f.name + "\", "), std::string::npos) << f.name << " not read";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, Headers,
    ::testing::Values(Case{"grid_main.cpp", {"include/geo/grid.hpp"}},
                      Case{"ring_main.c", {"include/ring.h", "parts.c", "include/table.def", "include/once.h",
                                           "include/ring_all.h"}}),
    [](const ::testing::TestParamInfo<Case> &info) {
      std::string n = info.param.main;
      for (char &ch : n)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return n;
    });

// The counts and what --verbose says about headers.
TEST(HeadersSaid, VerboseNamesInstrumentedHeadersAndWhatWasLeftAlone) {
  InDir in(std::string(HCC_TEST_DATA_DIR) + "/../headers");
  rewriter::Options options;
  options.main_file_name = "ring_main.c";
  options.headers = true;
  rewriter::Result r = rewriter::instrumentFile("ring_main.c", {"-Iinclude", "-std=c11"}, options);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.guards, 4u);  // main, ring_next, part_twice, once_value
  EXPECT_TRUE(hasMessage(r, "hcc: instrumented header include/ring.h: 1 function guard(s)"));
  EXPECT_TRUE(hasMessage(r, "hcc: instrumented header parts.c: 1 function guard(s)"));
  EXPECT_TRUE(hasMessage(r, "include/table.def is included more than once"));
  EXPECT_TRUE(hasMessage(r, "include/ring.h:7: leaving 'ring_prev' alone"));
}

// Without Options::headers nothing but the main file is rewritten (and no
// copies come back): the old contract.
TEST(HeadersSaid, OffMeansMainFileOnly) {
  InDir in(std::string(HCC_TEST_DATA_DIR) + "/../headers");
  rewriter::Options options;
  options.main_file_name = "grid_main.cpp";
  rewriter::Result r =
      rewriter::instrumentFile("grid_main.cpp", {"-Iinclude", "-isystem", "sysinc"}, options);
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.files.empty());
  EXPECT_EQ(r.guards, 1u);
}

}  // namespace
}  // namespace hcc::test

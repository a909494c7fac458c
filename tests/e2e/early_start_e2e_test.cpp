// The compiler started on a source's leading system headers while the
// instrumentor parses it (instrumentor/driver/early_start.hpp), end to end:
// the compile it finishes is the one the plain order gives — same object,
// same warnings and errors, same dependency file, exact visits — and a
// compile whose command the rewrite changes is stopped and done in order.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {
namespace fs = std::filesystem;

// Leading comments and system headers, then code with a -Wall warning and
// the file's own name and lines in its output.
const char *kSource =
    "// leading comment\n"
    "#include <cstdio>\n"
    "/* a block\n"
    "   comment */\n"
    "#include <numeric>\n"
    "#include <vector>\n"
    "\n"
    "static int twice(int x) { int unused_here; return 2 * x; }\n"
    "int sum(const std::vector<int> &v) {\n"
    "  int s = 0;\n"
    "  for (int x : v) s += twice(x);\n"
    "  return s;\n"
    "}\n"
    "int main() {\n"
    "  std::vector<int> v(10);\n"
    "  std::iota(v.begin(), v.end(), 1);\n"
    "  std::printf(\"%d %s:%d\\n\", sum(v), __FILE__, __LINE__);\n"
    "  return 0;\n"
    "}\n";

class EarlyStart : public ::testing::TestWithParam<Toolchain> {
 protected:
  // A directory with early.cpp; each hcc command gets an empty result cache,
  // so the instrumentor parses (a cache hit never starts early).
  std::string setup(const std::string &tag, const std::string &text = kSource) {
    dir_ = scratch_dir("early-start-" + tag + "-" + GetParam().name);
    std::ofstream(dir_ + "/early.cpp") << text;
    return dir_;
  }
  RunResult hcc(const std::string &args, const std::string &env = "") {
    const std::string cache = dir_ + "/cache-" + std::to_string(++runs_);
    return run("cd " + shell_quote(dir_) + " && HCC_CACHE_DIR=" + shell_quote(cache) + " " + env + " " +
               shell_quote(hcc_bin()) + " --hcc-compiler=" + GetParam().cxx + " " + args);
  }
  RunResult plain(const std::string &args) {
    return run("cd " + shell_quote(dir_) + " && " + GetParam().cxx + " " + args);
  }
  std::string dir_;
  int runs_ = 0;
};

TEST_P(EarlyStart, TheCompileStartedOnTheLeadingHeadersFinishesTheInstrumentedFile) {
  setup("ok");
  RunResult v = hcc("--hcc-verbose --hcc-functions=all -Wall -O2 -MMD -c early.cpp -o early.o");
  ASSERT_EQ(v.status, 0) << v.err;
  EXPECT_NE(v.err.find("(started on the leading system headers"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("the compiler started early reads the instrumented rest"), std::string::npos) << v.err;
  // The dependency file names the source, and neither the pipe nor a temp file.
  const std::string d = read_file(dir_ + "/early.d");
  EXPECT_EQ(d.rfind("early.o: early.cpp", 0), 0u) << d;
  EXPECT_EQ(d.find("instrumented-text"), std::string::npos) << d;
  EXPECT_EQ(d.find("/hcc-"), std::string::npos) << d;

  // The same object as the plain order's (no -g: debug info names temp paths).
  RunResult off = hcc("--hcc-functions=all -Wall -O2 -c early.cpp -o ordered.o", "HCC_EARLY_START=off");
  ASSERT_EQ(off.status, 0) << off.err;
  EXPECT_EQ(run("cmp " + shell_quote(dir_ + "/early.o") + " " + shell_quote(dir_ + "/ordered.o")).status, 0);

  // Its warnings are the plain compiler's, with no "In file included from"
  // (twice() is left alone by the default size policy, so Clang, which shows
  // the line it compiled, shows the user's line too).
  RunResult quiet = hcc("-Wall -O2 -c early.cpp -o quiet.o");
  RunResult ref = plain("-Wall -O2 -c early.cpp -o plain.o");
  ASSERT_EQ(quiet.status, 0) << quiet.err;
  EXPECT_NE(ref.err.find("unused_here"), std::string::npos) << ref.err;
  EXPECT_EQ(quiet.err, ref.err);

  // The program prints its own file and line as built plainly, and every
  // call is measured.
  ASSERT_EQ(hcc("early.o -o app").status, 0);
  ASSERT_EQ(plain("-O2 early.cpp -o plain").status, 0);
  RunResult i = run("cd " + shell_quote(dir_) + " && HCC_OUTPUT_DIR=prof ./app");
  RunResult p = run("cd " + shell_quote(dir_) + " && ./plain");
  ASSERT_EQ(i.status, 0) << i.err;
  EXPECT_EQ(i.out, p.out);
  EXPECT_EQ(p.out, "110 early.cpp:17\n");
  Profile prof = Profile::load(dir_ + "/prof");
  EXPECT_EQ(prof.visits("main"), 1);
  EXPECT_EQ(prof.visits("main/sum"), 1);
  EXPECT_EQ(prof.visits("main/sum/twice"), 10);
}

TEST_P(EarlyStart, AnErrorAfterTheLeadingHeadersGetsThePlainCompilersDiagnostics) {
  setup("error", "#include <vector>\n\nint main() {\n  std::vector<int> v;\n  return v.no_such_member;\n}\n");
  RunResult r = hcc("-O2 -c early.cpp -o early.o");
  RunResult ref = plain("-O2 -c early.cpp -o plain.o");
  EXPECT_NE(ref.status, 0);
  EXPECT_EQ(r.status, ref.status);
  EXPECT_NE(ref.err.find("no_such_member"), std::string::npos) << ref.err;
  EXPECT_EQ(r.err, ref.err);
  EXPECT_FALSE(fs::exists(dir_ + "/early.o"));
}

TEST_P(EarlyStart, ACommandTheRewriteChangesIsStoppedAndCompiledInOrder) {
  // A project header included with <> after the first line of code: its
  // instrumented copy puts the shadow tree's directories on the command,
  // so the compile started early is not the one to run.
  setup("stopped",
        "#include <cstdio>\nint before = 1;\n#include <mine.h>\n"
        "int main() { std::printf(\"%d\\n\", mine() + before); return 0; }\n");
  fs::create_directories(dir_ + "/inc");
  std::ofstream(dir_ + "/inc/mine.h") << "inline int mine() { return 7; }\n";
  RunResult r = hcc("--hcc-verbose --hcc-functions=all -Iinc -O2 -c early.cpp -o early.o");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("(started on the leading system headers"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("does not fit the instrumentation; stopped it"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("reads the instrumented rest"), std::string::npos) << r.err;
  ASSERT_EQ(hcc("early.o -o app").status, 0);
  RunResult i = run("cd " + shell_quote(dir_) + " && HCC_OUTPUT_DIR=prof ./app");
  EXPECT_EQ(i.out, "8\n") << i.err;
  Profile prof = Profile::load(dir_ + "/prof");
  EXPECT_EQ(prof.visits("main"), 1);
  EXPECT_EQ(prof.visits("main/mine"), 1);
}

TEST_P(EarlyStart, AFileIncludingItsProjectsHeadersIsCompiledAfterTheInstrumentor) {
  setup("project", "#include <cstdio>\n#include \"mine.h\"\nint main() { std::printf(\"%d\\n\", mine()); return 0; }\n");
  std::ofstream(dir_ + "/mine.h") << "inline int mine() { return 7; }\n";
  RunResult r = hcc("--hcc-verbose -O2 -c early.cpp -o early.o");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("the compiler starts after the instrumentor: it includes the project's own headers"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("(started on the leading system headers"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Toolchains, EarlyStart, ::testing::ValuesIn(toolchains()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
}  // namespace hcc::e2e

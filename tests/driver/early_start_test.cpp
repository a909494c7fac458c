// Which part of a source the compiler may read before its rewrite exists,
// and which compiles keep the plain order (instrumentor/driver/early_start.hpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "args.hpp"
#include "early_start.hpp"

namespace hcc::driver {
namespace {
namespace fs = std::filesystem;

size_t head_of(const std::string &text, const std::vector<std::string> &dirs = {}) {
  return leading_system_includes(text, dirs);
}

TEST(EarlyStartHead, EndsAtTheFirstLineThatIsNotASystemInclude) {
  const std::string head = "// a program\n#include <stdio.h>\n\n#  include<vector>  // why\n";
  EXPECT_EQ(head_of(head + "int main() { return 0; }\n"), head.size());
  EXPECT_EQ(head_of(head + "#include \"mine.h\"\n#include <map>\n"), head.size());
  EXPECT_EQ(head_of(head + "#define N 3\n#include <map>\n"), head.size());
  EXPECT_EQ(head_of(head + "#include_next <map>\n"), head.size());
  EXPECT_EQ(head_of(head + "#include HEADER\n"), head.size());
}

TEST(EarlyStartHead, BlockCommentsAcrossLinesBelongToItButItNeverEndsInsideOne) {
  const std::string text = "/* licence\n   text */\n#include <stdio.h>\n/* open\n#include <map>\n*/ int x;\n";
  EXPECT_EQ(head_of(text), std::string("/* licence\n   text */\n#include <stdio.h>\n").size());
  // The line after the include opens a comment that a code line closes.
  EXPECT_EQ(head_of("#include <stdio.h> /* still\n open */\n"), std::string("#include <stdio.h> /* still\n open */\n").size());
}

TEST(EarlyStartHead, IsEmptyWithoutAnIncludeOrWhenTheFirstLineIsCode) {
  EXPECT_EQ(head_of("// only a comment\n\nint main() { return 0; }\n"), 0u);
  EXPECT_EQ(head_of("int x;\n#include <stdio.h>\n"), 0u);
  EXPECT_EQ(head_of("#include \"mine.h\"\n"), 0u);
  // A line continued with a backslash, and a last line without its newline.
  EXPECT_EQ(head_of("#include <stdio.h> \\\n"), 0u);
  EXPECT_EQ(head_of("#include <stdio.h>"), 0u);
  // A byte order mark is not a blank.
  EXPECT_EQ(head_of("\xEF\xBB\xBF#include <stdio.h>\n"), 0u);
}

TEST(EarlyStartHead, StopsAtAnAngleIncludeFoundInTheCommandsOwnDirectories) {
  const fs::path dir = fs::temp_directory_path() / "hcc-early-start-head-test";
  fs::remove_all(dir);
  fs::create_directories(dir / "geo");
  std::ofstream(dir / "geo" / "grid.hpp") << "inline int cell() { return 1; }\n";
  const std::string text = "#include <stdio.h>\n#include <geo/grid.hpp>\n#include <map>\n";
  EXPECT_EQ(head_of(text, {dir.string()}), std::string("#include <stdio.h>\n").size());
  EXPECT_EQ(head_of(text, {(dir / "geo").string()}), text.size());
  fs::remove_all(dir);
}

TEST(EarlyStartHead, UserDirectoriesAreTheCommandsIncludeDirectoriesAndCpath) {
  const std::vector<std::string> args = {"-Iinc", "-I", "other", "-isystem", "sys", "--include-directory=more",
                                         "-idirafter", "late", "-iquote", "q", "-c", "a.c"};
  ::setenv("CPATH", "from_env::x", 1);
  const std::vector<std::string> dirs = user_include_dirs(args, classify(args));
  ::unsetenv("CPATH");
  EXPECT_EQ(dirs, (std::vector<std::string>{"inc", "other", "more", "late", "from_env", ".", "x"}));
}

std::string obstacle(std::vector<std::string> args, const std::string &text = "#include <stdio.h>\n",
                     CompilerFamily family = CompilerFamily::Gcc) {
  return early_start_obstacle(args, classify(args), "a.c", text, family);
}

TEST(EarlyStartObstacle, OnlyAPlainCompileOfOneSourceToAnObjectStartsEarly) {
  EXPECT_EQ(obstacle({"-O2", "-c", "a.c", "-o", "a.o"}), "");
  EXPECT_EQ(obstacle({"-O2", "-c", "a.c"}, "#include <stdio.h>\n", CompilerFamily::Clang), "");
  EXPECT_NE(obstacle({"-O2", "a.c", "-o", "a"}), "");
  EXPECT_NE(obstacle({"-S", "a.c"}), "");
  EXPECT_NE(obstacle({"-E", "a.c"}), "");
  EXPECT_NE(obstacle({"-c", "a.c", "b.c"}), "");
  EXPECT_NE(obstacle({"-c", "a.c"}, "#include <stdio.h>\n", CompilerFamily::Other), "");
}

TEST(EarlyStartObstacle, OptionsThatChangeHowTheMainFileIsReadKeepThePlainOrder) {
  for (const char *opt : {"-save-temps", "-traditional-cpp", "-Wp,-dD", "-fdirectives-only", "-fdiagnostics-color=always"})
    EXPECT_EQ(obstacle({opt, "-c", "a.c"}), std::string("option ") + opt);
  EXPECT_EQ(obstacle({"-include", "pre.h", "-c", "a.c"}), "option -include");
  EXPECT_EQ(obstacle({"-c", "a.c", "-MF", "-", "-MD"}), "dependencies go to standard output");
  // GCC calls the line marker an extension under -pedantic; Clang gets #line.
  EXPECT_EQ(obstacle({"-pedantic", "-c", "a.c"}), "option -pedantic");
  EXPECT_EQ(obstacle({"-pedantic", "-c", "a.c"}, "#include <stdio.h>\n", CompilerFamily::Clang), "");
}

TEST(EarlyStartObstacle, SourcesThatNoticeBeingIncludedKeepThePlainOrder) {
  EXPECT_EQ(obstacle({"-c", "a.c"}, "#include <stdio.h>\n#pragma once\n"), "the file uses #pragma once");
  EXPECT_EQ(obstacle({"-c", "a.c"}, "#include <stdio.h>\n_Pragma(\"once\")\n"), "the file uses #pragma once");
  EXPECT_EQ(obstacle({"-c", "a.c"}, "#include <stdio.h>\nint once = 1; // at once\n"), "");
  EXPECT_EQ(obstacle({"-c", "a.c"}, "#include <stdio.h>\nint l = __INCLUDE_LEVEL__;\n"),
            "the file uses __INCLUDE_LEVEL__");
  EXPECT_EQ(obstacle({"-c", "a.c"}, "#include_next <stdio.h>\n"), "the file uses include_next");
  EXPECT_EQ(obstacle({"-c", "a.c"}, "#pragma GCC system_header\n"), "the file uses system_header");
}

TEST(EarlyStartFamily, NamesThatAreNeitherGccNorClangAreOther) {
  EXPECT_EQ(compiler_family("/no/such/dir/x86_64-linux-gnu-gcc-12"), CompilerFamily::Gcc);
  EXPECT_EQ(compiler_family("/no/such/dir/clang++-19"), CompilerFamily::Clang);
  EXPECT_EQ(compiler_family("/no/such/dir/mpicxx"), CompilerFamily::Other);
  EXPECT_EQ(compiler_family("/no/such/dir/ccache"), CompilerFamily::Other);
}

}  // namespace
}  // namespace hcc::driver

// hcc-instrument's command line: the contract with the hcc driver.
#include "test_support.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace hcc::test {
namespace {

const std::string kTool = HCC_INSTRUMENT_EXE;

bool exists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

// The tool's default is --functions=auto (function_size.h): a one-liner
// gets no guard, a loop does; --verbose says why.
TEST(Tool, DefaultLeavesOutSmallFunctions) {
  TempDir dir;
  std::string src = dir.write("app.cpp", "int sq(int x) { return x * x; }\n"
                                         "int sum(int n) { int s = 0; for (int i = 0; i < n; ++i) s += sq(i); return s; }\n");
  std::string out = dir.file("app.hcc.cpp");
  Process r = run({kTool, "--verbose", "--main-file-name=app.cpp", "-o", out, src, "--"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("hcc: app.cpp:1: leaving 'sq' alone: --hcc-functions=auto: straight-line leaf: no loop, "
                       "no call worth measuring (size 2)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 function guard(s), 0 setjmp mark(s), 1 function(s) left out by --hcc-functions=auto"),
            std::string::npos)
      << r.out;
  std::string text = readFile(out);
  EXPECT_EQ(text.find("\"sq(int)\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"sum(int)\""), std::string::npos) << text;
  // --min-size decides for a function whose calls have a cost we cannot
  // see (here: a function of another file); a straight-line leaf such as sq
  // stays out whatever the minimum.
  std::string wrap = dir.write("wrap.cpp", "int ext(int);\nint wrap(int x) { return ext(x) + 1; }\n"
                                           "int sq(int x) { return x * x; }\n");
  ASSERT_EQ(run({kTool, "-o", out, wrap, "--"}).status, 0);
  EXPECT_EQ(readFile(out).find("\"wrap(int)\""), std::string::npos);
  ASSERT_EQ(run({kTool, "--min-size=1", "-o", out, wrap, "--"}).status, 0);
  EXPECT_NE(readFile(out).find("\"wrap(int)\""), std::string::npos);
  EXPECT_EQ(readFile(out).find("\"sq(int)\""), std::string::npos);
}

TEST(Tool, WritesLineDirectivePlusRewrittenSource) {
  TempDir dir;
  std::string src = dir.write("app.cpp", "int sq(int x) { return x * x; }\n");
  std::string out = dir.file("app.hcc.cpp");
  Process r = run({kTool, "--functions=all", "--main-file-name=src/app.cpp", "-o", out, src, "--", "-O2"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");  // silent without --verbose
  EXPECT_EQ(readFile(out),
            "#line 1 \"src/app.cpp\"\n"
            "int sq(int x) {static hcc_region_desc __hcc_rd0 = {\"sq(int)\", \"_Z2sqi\", "
            "\"src/app.cpp\", 1, 1, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return x "
            "* x; }\n");
}

// --shadow-dir: the project's header gets its copy at ROOT + its real path,
// listed in ROOT.names; its directory and the source's are mirrored (the
// other entries are links to the originals); the header itself is untouched.
TEST(Tool, ShadowDirHoldsHeaderCopiesAndMirrorsTheirDirectories) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("inc"));
  const std::string header_text = "#pragma once\ninline int twice(int x) { return 2 * x; }\n";
  dir.write("inc/util.h", header_text);
  dir.write("inc/other.h", "// never included\n");
  std::string src = dir.write("app.cpp", "#include \"util.h\"\nint main() { return twice(0); }\n");
  const std::string root = dir.file("root");
  const std::string real = std::filesystem::canonical(dir.path()).string();
  Process r = run({kTool, "--functions=all", "--verbose", "--shadow-dir=" + root, "--main-file-name=app.cpp", "-o",
                   dir.file("out.cpp"), src, "--", "-I" + dir.file("inc")});
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("hcc: instrumented header " + dir.file("inc/util.h") + ": 1 function guard(s)"),
            std::string::npos) << r.out;
  const std::string copy = root + real + "/inc/util.h";
  EXPECT_EQ(readFile(copy).substr(0, 9), "#line 1 \"");
  EXPECT_NE(readFile(copy).find("HCC_FUNCTION_GUARD_"), std::string::npos);
  EXPECT_EQ(readFile(dir.file("inc/util.h")), header_text);
  EXPECT_TRUE(std::filesystem::is_symlink(root + real + "/inc/other.h"));
  EXPECT_TRUE(std::filesystem::is_symlink(root + real + "/app.cpp"));
  EXPECT_EQ(readFile(root + ".names"), copy + "\t" + dir.file("inc/util.h") + "\n");
}

// The result cache (result_cache.h): an unchanged file is not parsed again;
// an edited header, or a new header where an #include looked in vain,
// means a new parse; HCC_CACHE=off turns it off.
TEST(Tool, CacheServesUnchangedFilesAndNoticesChangedOrNewHeaders) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("early"));
  std::filesystem::create_directories(dir.file("late"));
  dir.write("late/h.h", "inline int one() { return 1; }\n");
  std::string src = dir.write("app.cpp", "#include \"h.h\"\nint main() { return one(); }\n");
  setenv("HCC_CACHE_DIR", dir.file("cache").c_str(), 1);
  unsetenv("HCC_CACHE");
  auto instrument = [&] {
    return run({kTool, "--verbose", "-o", dir.file("out.cpp"), src, "--", "-I" + dir.file("early"),
                "-I" + dir.file("late")});
  };
  const std::string cached = "(from the instrumentation cache)";
  Process first = instrument();
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_EQ(first.out.find(cached), std::string::npos) << first.out;
  const std::string out1 = readFile(dir.file("out.cpp"));
  Process again = instrument();
  EXPECT_NE(again.out.find(cached), std::string::npos) << again.out;
  EXPECT_EQ(readFile(dir.file("out.cpp")), out1);
  // A new header where the lookup looked first.
  dir.write("early/h.h", "inline int one() { return 2; }\n");
  EXPECT_EQ(instrument().out.find(cached), std::string::npos);
  EXPECT_NE(instrument().out.find(cached), std::string::npos);
  // An edited header.
  dir.write("early/h.h", "inline int one() { return 3; }  \n");
  EXPECT_EQ(instrument().out.find(cached), std::string::npos);
  // Off.
  setenv("HCC_CACHE", "off", 1);
  EXPECT_EQ(instrument().out.find(cached), std::string::npos);
  unsetenv("HCC_CACHE");
  unsetenv("HCC_CACHE_DIR");
}

// A header written again with the bytes it held (configure rewrites
// config.h on every run; a checkout or a touch changes only the time):
// the cached result still serves, by the content hash of the project's
// files. The same size with other bytes does not.
TEST(Tool, CacheServesAHeaderRewrittenWithTheSameBytes) {
  TempDir dir;
  dir.write("config.h", "#define ANSWER 42\n");
  std::string src = dir.write("app.c", "#include \"config.h\"\nint main(void) { return ANSWER - 42; }\n");
  setenv("HCC_CACHE_DIR", dir.file("cache").c_str(), 1);
  unsetenv("HCC_CACHE");
  auto instrument = [&] { return run({kTool, "--verbose", "-o", dir.file("out.c"), src, "--"}); };
  const std::string cached = "(from the instrumentation cache)";
  ASSERT_EQ(instrument().status, 0);
  // A new file (new inode, new time) with the same bytes, as sed + mv do.
  dir.write("config.h.new", "#define ANSWER 42\n");
  std::filesystem::rename(dir.file("config.h.new"), dir.file("config.h"));
  Process same = instrument();
  EXPECT_NE(same.out.find(cached), std::string::npos) << same.out;
  // Same size, other bytes: parsed again.
  dir.write("config.h.new", "#define ANSWER 43\n");
  std::filesystem::rename(dir.file("config.h.new"), dir.file("config.h"));
  Process other = instrument();
  EXPECT_EQ(other.out.find(cached), std::string::npos) << other.out;
  unsetenv("HCC_CACHE_DIR");
}

// A preamble that reaches one of the project's headers (an angle-bracket
// include found through -I) is recorded as unusable once; when that header
// changes later, the preamble is not precompiled again to find out the
// same (every rebuild after a configure run paid that attempt).
TEST(Tool, APreambleWithAProjectHeaderIsNotPrecompiledAgainWhenTheHeaderChanges) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("include"));
  dir.write("include/proj.h", "#define LIMIT 3\n");
  const std::string head = "#include <stdio.h>\n#include <proj.h>\n";
  std::string src = dir.write("app.c", head + "int f(void) { return LIMIT; }\n");
  const std::string cache = dir.file("cache");
  setenv("HCC_CACHE_DIR", cache.c_str(), 1);
  unsetenv("HCC_CACHE");
  auto instrument = [&](const std::string &body) {
    dir.write("app.c", head + body);
    return run({kTool, "--verbose", "-o", dir.file("out.c"), src, "--", "-I" + dir.file("include")});
  };
  ASSERT_EQ(instrument("int f(void) { return LIMIT + 1; }\n").status, 0);  // seen
  ASSERT_EQ(instrument("int f(void) { return LIMIT + 2; }\n").status, 0);  // tried: unusable
  std::vector<std::filesystem::path> records;
  for (const auto &e : std::filesystem::directory_iterator(cache + "/pch"))
    if (e.path().extension() == ".deps") records.push_back(e.path());
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(readFile(records[0].string()).rfind("unusable\n", 0), 0u) << readFile(records[0].string());
  const auto written = std::filesystem::last_write_time(records[0]);
  dir.write("include/proj.h", "#define LIMIT 30\n");
  Process later = instrument("int f(void) { return LIMIT + 3; }\n");
  ASSERT_EQ(later.status, 0) << later.out;
  EXPECT_EQ(std::filesystem::last_write_time(records[0]), written) << "the preamble was precompiled again";
  EXPECT_NE(readFile(dir.file("out.c")).find("LIMIT + 3"), std::string::npos);
  unsetenv("HCC_CACHE_DIR");
}

// The precompiled preamble (preamble_cache.h): a file whose body changes is
// parsed again, but its leading system headers come from a PCH from the
// second parse on; the rewrite is the same as without any cache.
TEST(Tool, EditedFileReusesItsPrecompiledSystemHeaders) {
  TempDir dir;
  const std::string head = "#include <map>\n#include <string>\n";
  std::string src = dir.write("app.cpp", head + "int f() { return 1; }\n");
  setenv("HCC_CACHE_DIR", dir.file("cache").c_str(), 1);
  unsetenv("HCC_CACHE");
  auto instrument = [&](const std::string &body) {
    dir.write("app.cpp", head + body);
    return run({kTool, "--functions=all", "--verbose", "-o", dir.file("out.cpp"), src, "--", "-O2"});
  };
  const std::string from_pch = "system headers from a precompiled preamble";
  Process first = instrument("int f() { return 1; }\n");
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_EQ(first.out.find(from_pch), std::string::npos);
  Process second = instrument("int f() { return 2; }\n");
  EXPECT_NE(second.out.find("precompiled its leading system headers"), std::string::npos) << second.out;
  Process third = instrument("std::map<std::string, int> g() { return {{\"a\", 3}}; }\n");
  EXPECT_NE(third.out.find(from_pch), std::string::npos) << third.out;
  const std::string with_pch = readFile(dir.file("out.cpp"));
  setenv("HCC_CACHE", "off", 1);
  ASSERT_EQ(run({kTool, "--functions=all", "-o", dir.file("ref.cpp"), src, "--", "-O2"}).status, 0);
  EXPECT_EQ(with_pch, readFile(dir.file("ref.cpp")));
  EXPECT_NE(with_pch.find("\"g()\""), std::string::npos) << with_pch;
  unsetenv("HCC_CACHE");
  unsetenv("HCC_CACHE_DIR");
}

// Files that start with the same system headers and are compiled with the
// same flags from the same directory share one precompiled preamble: the
// first marks it seen, the second precompiles it, the third loads it, and
// its rewrite (names, file, lines) is its own, as without any cache. A
// different -D is a different preamble.
TEST(Tool, FilesThatBeginAlikeShareOnePrecompiledPreamble) {
  TempDir dir;
  const std::string head = "#include <map>\n#include <string>\n";
  for (const char *sub : {"a", "b", "c", "d"}) std::filesystem::create_directories(dir.file(sub));
  setenv("HCC_CACHE_DIR", dir.file("cache").c_str(), 1);
  unsetenv("HCC_CACHE");
  auto instrument = [&](const std::string &name, const std::string &define) {
    const std::string src = dir.write(name, head + "int f_" + name.substr(0, 1) + "() { return 1; }\n");
    return run({kTool, "--functions=all", "--verbose", "-o", dir.file(name + ".out"), src, "--", "-O2", define});
  };
  const std::string from_pch = "system headers from a precompiled preamble";
  Process a = instrument("a/x.cpp", "-DV=1");
  ASSERT_EQ(a.status, 0) << a.out;
  Process b = instrument("b/y.cpp", "-DV=1");
  EXPECT_NE(b.out.find("precompiled its leading system headers"), std::string::npos) << b.out;
  Process c = instrument("c/z.cpp", "-DV=1");
  EXPECT_NE(c.out.find(from_pch), std::string::npos) << c.out;
  Process d = instrument("d/w.cpp", "-DV=2");
  EXPECT_EQ(d.out.find(from_pch), std::string::npos) << d.out;
  const std::string with_pch = readFile(dir.file("c/z.cpp.out"));
  setenv("HCC_CACHE", "off", 1);
  ASSERT_EQ(run({kTool, "--functions=all", "-o", dir.file("ref.cpp"), dir.file("c/z.cpp"), "--", "-O2", "-DV=1"}).status,
            0);
  EXPECT_EQ(with_pch, readFile(dir.file("ref.cpp")));
  EXPECT_NE(with_pch.find("\"f_c()\", \"_Z3f_cv\", \"" + dir.file("c/z.cpp") + "\", 3"), std::string::npos) << with_pch;
  unsetenv("HCC_CACHE");
  unsetenv("HCC_CACHE_DIR");
}

// A preamble that looks beside the main file is shared only within one
// directory. e/ has local.h and f/ has not; f's file must not get e's answer
// (its #error would fire). `head` probes for local.h, `flags` may name it.
void expectNotSharedAcrossDirectories(const std::string &head, const std::vector<std::string> &flags) {
  TempDir dir;
  for (const char *sub : {"e", "f"}) std::filesystem::create_directories(dir.file(sub));
  dir.write("e/local.h", "\n");
  setenv("HCC_CACHE_DIR", dir.file("cache").c_str(), 1);
  unsetenv("HCC_CACHE");
  auto instrument = [&](const std::string &name, const std::string &body) {
    const std::string src = dir.write(name, head + body);
    std::vector<std::string> args = {kTool, "--functions=all", "--verbose", "-o", dir.file(name + ".out"), src, "--",
                                     "-O2"};
    args.insert(args.end(), flags.begin(), flags.end());
    return run(args);
  };
  ASSERT_EQ(instrument("e/a.cpp", "int a() { return HAVE_LOCAL; }\n").status, 0);
  Process b = instrument("e/b.cpp", "int b() { return HAVE_LOCAL; }\n");
  ASSERT_NE(b.out.find("precompiled its leading system headers"), std::string::npos) << b.out;
  Process c = instrument("e/c.cpp", "int c() { return HAVE_LOCAL; }\n");
  EXPECT_NE(c.out.find("system headers from a precompiled preamble"), std::string::npos) << c.out;
  Process f = instrument("f/d.cpp", "int d0;\n#ifdef HAVE_LOCAL\n#error e's answer\n#endif\nint d() { return 0; }\n");
  EXPECT_EQ(f.status, 0) << f.out;
  EXPECT_EQ(f.out.find("precompiled preamble"), std::string::npos) << f.out;
  unsetenv("HCC_CACHE_DIR");
}

// __has_include("x.h") looks beside the main file first.
TEST(Tool, APreambleAskingForAQuotedFileIsNotSharedAcrossDirectories) {
  expectNotSharedAcrossDirectories("#if __has_include(\"local.h\")\n#define HAVE_LOCAL 1\n#endif\n#include <map>\n", {});
}

// So does a probe whose name comes from a macro, here a -D: the preamble's
// text holds no quote at all.
TEST(Tool, APreambleProbingAMacroNamedFileIsNotSharedAcrossDirectories) {
  expectNotSharedAcrossDirectories("#if __has_include(LOCAL)\n#define HAVE_LOCAL 1\n#endif\n#include <map>\n",
                                   {"-DLOCAL=\"local.h\""});
}

// Strings that name no file — a licence comment's "AS IS", a #define's
// value, an #error message — do not tie a preamble to its directory: files
// in three directories share one.
TEST(Tool, QuotesThatNameNoFileDoNotKeepDirectoriesApart) {
  TempDir dir;
  const std::string head =
      "/* Provided \"AS IS\". */\n#define VERSION \"1.2\"\n#if 0\n#error \"never\"\n#endif\n"
      "#include <map>\n";
  for (const char *sub : {"a", "b", "c"}) std::filesystem::create_directories(dir.file(sub));
  setenv("HCC_CACHE_DIR", dir.file("cache").c_str(), 1);
  unsetenv("HCC_CACHE");
  auto instrument = [&](const std::string &name) {
    const std::string src = dir.write(name, head + "const char *v() { return VERSION; }\n");
    return run({kTool, "--functions=all", "--verbose", "-o", dir.file(name + ".out"), src, "--", "-O2"});
  };
  ASSERT_EQ(instrument("a/x.cpp").status, 0);
  Process b = instrument("b/y.cpp");
  EXPECT_NE(b.out.find("precompiled its leading system headers"), std::string::npos) << b.out;
  Process c = instrument("c/z.cpp");
  EXPECT_NE(c.out.find("system headers from a precompiled preamble"), std::string::npos) << c.out;
  EXPECT_NE(readFile(dir.file("c/z.cpp.out")).find("\"v()\", \"_Z1vv\", \"" + dir.file("c/z.cpp") + "\", 7"),
            std::string::npos);
  unsetenv("HCC_CACHE_DIR");
}

TEST(Tool, NameDefaultsToTheSourceArgument) {
  TempDir dir;
  std::string src = dir.write("m.c", "int main(void) { return 0; }\n");
  std::string out = dir.file("out.c");
  ASSERT_EQ(run({kTool, "-o", out, src, "--"}).status, 0);
  EXPECT_EQ(readFile(out).substr(0, src.size() + 11), "#line 1 \"" + src + "\"\n");
}

TEST(Tool, UnparseableFileFailsSilentlyAndLeavesNoOutput) {
  TempDir dir;
  std::string src = dir.write("bad.cpp", "int f( { return 0; }\n");
  std::string out = dir.file("out.cpp");
  dir.write("out.cpp", "stale output of an earlier run\n");
  Process r = run({kTool, "-o", out, src, "--", "-std=c++17"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(exists(out));
}

TEST(Tool, VerboseExplainsErrors) {
  TempDir dir;
  std::string src = dir.write("bad.cpp", "int ok() { return 0; }\nint f( { return 0; }\n");
  std::string out = dir.file("out.cpp");
  Process r = run({kTool, "--verbose", "--main-file-name=bad.cpp", "-o", out, src, "--"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("hcc: bad.cpp:2:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("errors generated"), std::string::npos) << r.out;
  EXPECT_FALSE(exists(out));
}

TEST(Tool, VerboseExplainsFunctionsLeftAlone) {
  TempDir dir;
  std::string src = dir.write("app.cpp",
                              "\n\n\n\n\n\n\n\n\n\n\nconstexpr int sq(int x) { return x * x; }\n"
                              "int use() { return sq(2); }\n");
  std::string out = dir.file("out.cpp");
  Process r = run({kTool, "--verbose", "--main-file-name=app.cpp", "-o", out, src, "--"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("hcc: app.cpp:12: leaving 'sq' alone: constexpr\n"), std::string::npos)
      << r.out;
}

TEST(Tool, GccOnlyOptionsDoNotStopInstrumentation) {
  TempDir dir;
  std::string src = dir.write("a.c", "int f(void) { return 1; }\n");
  std::string out = dir.file("out.c");
  Process r = run({kTool, "--functions=all", "-o", out, src, "--", "-O2", "-fipa-pta", "-fno-keep-inline-dllexport",
               "-Wno-maybe-uninitialized", "-flto=auto", "-MD", "-MF", dir.file("a.d")});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(readFile(out).find("HCC_FUNCTION_GUARD_"), std::string::npos);
  EXPECT_FALSE(exists(dir.file("a.d")));  // the dependency file is the build's job
}

TEST(Tool, IncludePathsAndDefinesReachTheParser) {
  TempDir dir;
  mkdir(dir.file("inc").c_str(), 0700);
  dir.write("inc/conf.h", "#define RET 7\n");
  std::string src = dir.write("a.c",
                              "#include \"conf.h\"\n#ifndef ON\n#error off\n#endif\n"
                              "int f(void) { return RET; }\n");
  std::string out = dir.file("out.c");
  EXPECT_NE(run({kTool, "-o", out, src, "--"}).status, 0);
  EXPECT_EQ(run({kTool, "-o", out, src, "--", "-I", dir.file("inc"), "-DON"}).status, 0);
}

TEST(Tool, LanguageComesFromExtensionOrX) {
  TempDir dir;
  // Valid C, invalid C++ (implicit void* conversion).
  std::string c = dir.write("a.c", "#include <stdlib.h>\nint *f(void) { int *p = malloc(4); return p; }\n");
  std::string out = dir.file("out.c");
  EXPECT_EQ(run({kTool, "-o", out, c, "--"}).status, 0);
  EXPECT_NE(run({kTool, "-o", out, c, "--", "-x", "c++"}).status, 0);
  std::string upper = dir.write("b.C", "template <class T> T id(T t) { return t; }\n");
  EXPECT_EQ(run({kTool, "-o", out, upper, "--"}).status, 0);
}

TEST(Tool, UsageErrors) {
  EXPECT_EQ(run({kTool}).status, 2);
  EXPECT_EQ(run({kTool, "-o", "x.c"}).status, 2);
  EXPECT_EQ(run({kTool, "--bogus", "-o", "x", "a.c", "--"}).status, 2);
  EXPECT_EQ(run({kTool, "--functions=some", "-o", "x", "a.c", "--"}).status, 2);
  EXPECT_EQ(run({kTool, "--min-size=-1", "-o", "x", "a.c", "--"}).status, 2);
  EXPECT_EQ(run({kTool, "--min-size=", "-o", "x", "a.c", "--"}).status, 2);
  EXPECT_EQ(run({kTool, "--help"}).status, 0);
}

TEST(Tool, MissingSourceFails) {
  TempDir dir;
  Process r = run({kTool, "-o", dir.file("o.c"), dir.file("missing.c"), "--"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.out, "");
}

// Issue 28, item 4, in hcc-instrument itself (started by hcc, by a build
// that calls it directly, or in the server's workers): a --filter that is
// a FIFO or a link to /dev/zero is refused at once with exit 3 and the file
// named, instead of a wait for a writer or a read without end. Run under a
// kill-timeout: a hang is a failure, not a stalled suite.
TEST(Tool, AFilterThatIsNotARegularFileIsRefusedAtOnce) {
  TempDir dir;
  std::string src = dir.write("app.cpp", "int sq(int x) { return x * x; }\n");
  const std::string fifo = dir.file("f.fifo"), zero = dir.file("zero.tau");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(::symlink("/dev/zero", zero.c_str()), 0);
  const std::pair<std::string, std::string> cases[] = {{fifo, "a FIFO"}, {zero, "a character device"}};
  for (const auto &[filter, kind] : cases) {
    Process r = run({"timeout", "-s", "KILL", "60", kTool, "--filter=" + filter, "-o", dir.file("out.cpp"), src, "--"});
    EXPECT_EQ(r.status, 3) << filter << "\n" << r.out;
    EXPECT_EQ(r.out, "hcc: error: " + filter + ": cannot read the filter file: not a regular file (" + kind + ")\n");
    EXPECT_FALSE(exists(dir.file("out.cpp")));
  }
}

}  // namespace
}  // namespace hcc::test

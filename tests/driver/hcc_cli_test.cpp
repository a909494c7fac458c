// Runs the built `hcc` binary on real sources with the real gcc/clang.
//
// The instrumentor is the stand-in script next to this file (selected with
// HCC_INSTRUMENTOR, or installed into a throw-away prefix), so these tests
// check the driver's own logic whatever state hcc-instrument and libhcc are
// in. Every test runs with TMPDIR pointing into its scratch dir, and checks
// at the end that hcc left no temporary files behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <csignal>

#include "test_util.hpp"

using namespace hcc_test;
using Args = std::vector<std::string>;

namespace {

const std::string kHcc = HCC_EXE;
const std::string kStandin = HCC_STANDIN;
const std::string kMarker = "HCC-STANDIN-INSTRUMENTED";

std::string build_prefix() {
  return fs::canonical(kHcc).parent_path().parent_path().string();
}

bool on_path(const std::string &prog) {
  return run({"sh", "-c", "command -v " + prog}, ".").status == 0;
}

// The bracketed arguments of each stand-in call: "call [a] [b] …".
std::vector<Args> parse_calls(const std::string &log) {
  std::vector<Args> calls;
  for (const auto &line : lines_of(log)) {
    Args items;
    size_t p = 0;
    while ((p = line.find(" [", p)) != std::string::npos) {
      size_t end = line.find("]", p + 2);
      while (end != std::string::npos && end + 1 < line.size() && line.compare(end + 1, 2, " [") != 0)
        end = line.find("]", end + 1);
      items.push_back(line.substr(p + 2, end - p - 2));
      p = end;
    }
    calls.push_back(items);
  }
  return calls;
}

// make rules of a simple .d file (no blanks in names): target -> prerequisites.
std::vector<std::pair<std::string, Args>> parse_deps(std::string text) {
  for (size_t p; (p = text.find("\\\n")) != std::string::npos;) text.replace(p, 2, " ");
  std::vector<std::pair<std::string, Args>> rules;
  for (const auto &line : lines_of(text)) {
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    Args prereqs;
    std::stringstream ss(line.substr(colon + 1));
    for (std::string w; ss >> w;) prereqs.push_back(w);
    std::string target = line.substr(0, colon);
    target.erase(target.find_last_not_of(' ') + 1);
    rules.emplace_back(target, prereqs);
  }
  return rules;
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(tmp_);
    write_file(work_ / "src/x.c", "#include \"h.h\"\nint x_value(void) { return H; }\n");
    write_file(work_ / "src/h.h", "#define H 42\n");
    write_file(work_ / "other/h.h", "#error \"other/h.h must not be found before src/h.h\"\n");
    write_file(work_ / "src/bad.c", "int f(void) {\n  return 1;\n  int x = ;\n}\n");
    write_file(work_ / "src/k.cpp", "#include \"h.h\"\nint k() { return H; }\n");
    write_file(work_ / "src/main.c",
               "#include <stdio.h>\nint util(void);\n"
               "int main(void) { printf(\"util=%d\\n\", util()); return 7; }\n");
    write_file(work_ / "src/util.c", "#include \"h.h\"\nint util(void) { return H; }\n");
  }

  void TearDown() override {
    if (!expect_kept_files_)
      EXPECT_TRUE(fs::is_empty(tmp_)) << "hcc left temporary files in " << tmp_;
  }

  EnvChanges env(const EnvChanges &extra = {}) const {
    EnvChanges e = {{"HCC_INSTRUMENTOR", kStandin}, {"HCC_STANDIN_LOG", log_},
                    {"TMPDIR", tmp_},               {"HCC_WRAPPER", std::nullopt},
                    {"HCC_COMPILER", std::nullopt}, {"HCC_DRIVER_DEPTH", std::nullopt},
                    {"HCC_STANDIN_PROBE", std::nullopt}};
    e.insert(e.end(), extra.begin(), extra.end());
    return e;
  }

  Result hcc(const Args &args, const EnvChanges &extra = {}) const {
    Args argv = {kHcc};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv, work_.path(), env(extra));
  }

  std::vector<Args> calls() const { return parse_calls(read_file(log_)); }
  bool instrumented(const std::string &rel) const {
    return read_file(work_ / rel).find(kMarker) != std::string::npos;
  }

  ScratchDir work_;
  std::string tmp_ = work_ / "tmp";
  std::string log_ = work_ / "standin.log";
  bool expect_kept_files_ = false;
};

class CliWithCompiler : public Cli, public ::testing::WithParamInterface<const char *> {
 protected:
  void SetUp() override {
    if (!on_path(GetParam())) GTEST_SKIP() << GetParam() << " is not installed";
    Cli::SetUp();
  }
  std::string compiler_option() const { return std::string("--hcc-compiler=") + GetParam(); }
};

}  // namespace

// ---- pass-through ---------------------------------------------------------

TEST_F(Cli, VersionPrintsTheUnderlyingCompilersVersion) {
  Result r = hcc({"--version"});
  Result want = run({"c++", "--version"}, work_.path());
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, want.out);
  EXPECT_FALSE(r.out.empty());

  Result g = hcc({"gcc", "--version"});  // prefix mode
  EXPECT_EQ(g.out, run({"gcc", "--version"}, work_.path()).out);
  EXPECT_FALSE(exists(log_)) << "the instrumentor must not run for --version";
}

TEST_F(Cli, PreprocessOnlyPassesThrough) {
  Result r = hcc({"-E", "src/x.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("int x_value(void) { return 42; }"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"src/x.c\""), std::string::npos);
  EXPECT_EQ(r.out.find("hcc/detail"), std::string::npos);
  EXPECT_EQ(r.out.find(kMarker), std::string::npos);
  EXPECT_FALSE(exists(log_));
}

TEST_F(Cli, DependencyListingPassesThrough) {
  Result r = hcc({"-M", "src/x.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  auto rules = parse_deps(r.out);
  ASSERT_FALSE(rules.empty()) << r.out;
  EXPECT_EQ(rules[0].first, "x.o");
  ASSERT_FALSE(rules[0].second.empty());
  EXPECT_EQ(rules[0].second[0], "src/x.c");
  EXPECT_NE(std::find(rules[0].second.begin(), rules[0].second.end(), "src/h.h"), rules[0].second.end());
  EXPECT_EQ(r.out.find("hcc"), std::string::npos) << r.out;

  Result mm = hcc({"-MM", "src/x.c"});
  EXPECT_EQ(mm.out, "x.o: src/x.c src/h.h\n");
  EXPECT_FALSE(exists(log_));
}

TEST_F(Cli, PreprocessedAssemblyAndStdinInputsAreNotInstrumented) {
  write_file(work_ / "pre.i", "int pre_value;\n");
  write_file(work_ / "asm.s", ".globl asm_sym\nasm_sym:\n");
  EXPECT_EQ(hcc({"-c", "pre.i", "asm.s"}).status, 0);
  EXPECT_TRUE(exists(work_ / "pre.o"));
  EXPECT_TRUE(exists(work_ / "asm.o"));

  Args argv = {kHcc, "-x", "c", "-c", "-", "-o", "stdin.o"};
  Result r = run(argv, work_.path(), env(), "int from_stdin;\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(exists(work_ / "stdin.o"));
  EXPECT_FALSE(exists(log_));
}

TEST_F(Cli, HccOffAndWrapperOffRunTheCompilerUnchanged) {
  Result r = hcc({"--hcc-off", "-c", "src/x.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(exists(work_ / "x.o"));
  EXPECT_FALSE(instrumented("x.o"));

  // No runtime linking either: the build tree has no lib/libhcc.so for
  // this test to rely on, so a -lhcc would fail the link.
  Result link = hcc({"src/main.c", "src/util.c", "-o", "plain"}, {{"HCC_WRAPPER", "off"}});
  EXPECT_EQ(link.status, 0) << link.err;
  Result app = run({work_ / "plain"}, work_.path());
  EXPECT_EQ(app.status, 7);
  EXPECT_EQ(app.out, "util=42\n");
  EXPECT_FALSE(exists(log_));
}

// ---- instrumenting compiles ----------------------------------------------

TEST_F(Cli, CompileWithoutOutputWritesObjectInCwd) {
  Result r = hcc({"-c", "src/x.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(exists(work_ / "x.o"));
  EXPECT_FALSE(exists(work_ / "src/x.o"));
  EXPECT_TRUE(instrumented("x.o"));

  auto c = calls();
  ASSERT_EQ(c.size(), 1u);
  ASSERT_GE(c[0].size(), 5u);
  EXPECT_EQ(c[0][0], "--main-file-name=src/x.c");
  EXPECT_EQ(c[0][1], "-o");
  EXPECT_EQ(c[0][2].rfind(tmp_ + "/hcc-", 0), 0u) << c[0][2];
  EXPECT_EQ(fs::path(c[0][2]).filename(), "x.c");  // same base name as the source
  EXPECT_EQ(c[0][3], "src/x.c");
  EXPECT_EQ(c[0][4], "--");
}

TEST_F(Cli, AssemblyOutputKeepsTheSourceName) {
  Result r = hcc({"-S", "src/x.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(instrumented("x.s"));
}

TEST_F(Cli, InstrumentorGetsTheCompileArgumentsOnly) {
  fs::create_directories(work_ / "obj");
  Result r = hcc({"-O1", "-c", "-DFOO=1", "src/x.c", "-o", "obj/x.o", "-MMD", "-MP", "-MF",
                  "obj/x.d", "-MT", "tgt", "-Isrc", "-x", "none", "-Wall"});
  EXPECT_EQ(r.status, 0) << r.err;
  auto c = calls();
  ASSERT_EQ(c.size(), 1u);
  Args after(c[0].begin() + 5, c[0].end());
  EXPECT_EQ(after, (Args{"-O1", "-DFOO=1", "-Isrc", "-Wall"}));
  EXPECT_TRUE(instrumented("obj/x.o"));
}

TEST_F(Cli, QuotedIncludesResolveBesideTheOriginalSourceFirst) {
  // other/h.h would #error if the user's -iquote were searched first.
  Result r = hcc({"-c", "-iquote", "other", "src/x.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(instrumented("x.o"));
}

TEST_F(Cli, SeveralSourcesInSeveralDirectories) {
  write_file(work_ / "a/p.c", "#include \"pa.h\"\nint p(void) { return PA; }\n");
  write_file(work_ / "a/pa.h", "#define PA 1\n");
  write_file(work_ / "b/q.cpp", "#include \"qb.h\"\nint q() { return QB; }\n");
  write_file(work_ / "b/qb.h", "#define QB 2\n");
  Result r = hcc({"--hcc-verbose", "-c", "a/p.c", "b/q.cpp"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(instrumented("p.o"));
  EXPECT_TRUE(instrumented("q.o"));
  EXPECT_EQ(calls().size(), 2u);
  std::string prelude = build_prefix() + "/include/hcc/detail/inject.h";
  EXPECT_NE(r.err.find("hcc: compiler: /"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("c++ -iquote a -iquote b '-DHCC_RUNTIME_LIBRARY_=\"" + build_prefix() +
                        "/lib/libhcc.so\"' -include " + prelude + " -c /"),
            std::string::npos)
      << r.err;
}

TEST_F(Cli, ResponseFileIsExpandedWithQuotes) {
  write_file(work_ / "src/msg.c", "const char *msg = MSG;\n");
  write_file(work_ / "args.rsp", "-c 'src/msg.c' \"-DMSG=\\\"hi there\\\"\" -o out/msg.o\n");
  fs::create_directories(work_ / "out");
  Result r = hcc({"@args.rsp"});
  EXPECT_EQ(r.status, 0) << r.err;
  ASSERT_TRUE(exists(work_ / "out/msg.o"));
  EXPECT_TRUE(instrumented("out/msg.o"));
  EXPECT_NE(read_file(work_ / "out/msg.o").find("hi there"), std::string::npos);
  auto c = calls();
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0][3], "src/msg.c");
  EXPECT_EQ(Args(c[0].begin() + 5, c[0].end()), (Args{"-DMSG=\"hi there\""}));

  // Prefix mode in front of a response file.
  fs::remove(work_ / "out/msg.o");
  Result p = hcc({"--hcc-verbose", "gcc", "@args.rsp"});
  EXPECT_EQ(p.status, 0) << p.err;
  EXPECT_TRUE(instrumented("out/msg.o"));
  EXPECT_NE(p.err.find("(first argument (prefix mode))"), std::string::npos) << p.err;
  // The expanded arguments reach gcc through hcc's own response file.
  EXPECT_NE(p.err.find("-include " + build_prefix() + "/include/hcc/detail/inject.h @" + tmp_ + "/hcc-"),
            std::string::npos) << p.err;
}

TEST_F(Cli, HccOptionsInsideAResponseFileAreHccs) {
  write_file(work_ / "off.rsp", "--hcc-off -c src/x.c\n");
  Result r = hcc({"@off.rsp"});
  EXPECT_EQ(r.status, 0) << r.err;  // the compiler never saw --hcc-off
  EXPECT_TRUE(exists(work_ / "x.o"));
  EXPECT_FALSE(instrumented("x.o"));
  EXPECT_FALSE(exists(log_));
}

TEST_P(CliWithCompiler, SyntaxErrorShowsTheUsersFileAndLineAndFails) {
  Result r = hcc({compiler_option(), "-c", "src/bad.c"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("src/bad.c:3:"), std::string::npos) << r.err;
  EXPECT_EQ(count(r.err, "error:"), 1u) << r.err;  // the original compile's, once
  EXPECT_EQ(r.err.find("/hcc-"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("hcc:"), std::string::npos) << r.err;  // nothing of ours
  EXPECT_FALSE(exists(work_ / "bad.o"));
  EXPECT_EQ(calls().size(), 1u);
}

TEST_P(CliWithCompiler, WarningsOfASuccessfulCompileStayVisible) {
  write_file(work_ / "src/w.c", "int w(void) {\n  int unused;\n  return 0;\n}\n");
  Result r = hcc({compiler_option(), "-Wall", "-c", "src/w.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("src/w.c:2:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unused"), std::string::npos) << r.err;
  EXPECT_TRUE(instrumented("w.o"));
}

TEST_P(CliWithCompiler, MmdNamesTheOriginalSourceAndNotThePrelude) {
  Result r = hcc({compiler_option(), "-c", "src/x.c", "-MMD", "-MP"});
  EXPECT_EQ(r.status, 0) << r.err;
  std::string d = read_file(work_ / "x.d");
  EXPECT_EQ(d.find("/hcc-"), std::string::npos) << d;
  EXPECT_EQ(d.find("inject.h"), std::string::npos) << d;
  EXPECT_EQ(d.find("hcc/detail"), std::string::npos) << d;
  auto rules = parse_deps(d);
  ASSERT_EQ(rules.size(), 2u) << d;
  EXPECT_EQ(rules[0].first, "x.o");
  EXPECT_EQ(rules[0].second, (Args{"src/x.c", "src/h.h"}));
  EXPECT_EQ(rules[1].first, "src/h.h");  // -MP phony rule
  EXPECT_TRUE(rules[1].second.empty());
}

TEST_P(CliWithCompiler, MdWithOutputAndMfAndMt) {
  fs::create_directories(work_ / "obj");
  fs::create_directories(work_ / "deps");
  Result r = hcc({compiler_option(), "-c", "src/x.c", "-o", "obj/x.o", "-MD"});
  EXPECT_EQ(r.status, 0) << r.err;
  auto rules = parse_deps(read_file(work_ / "obj/x.d"));
  ASSERT_FALSE(rules.empty());
  EXPECT_EQ(rules[0].first, "obj/x.o");
  EXPECT_EQ(rules[0].second.front(), "src/x.c");
  EXPECT_NE(std::find(rules[0].second.begin(), rules[0].second.end(), "src/h.h"), rules[0].second.end());

  r = hcc({compiler_option(), "-c", "src/x.c", "-o", "obj/y.o", "-MMD", "-MF", "deps/y.dep", "-MT", "custom"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(work_ / "deps/y.dep"), "custom: src/x.c src/h.h\n");
}

// Named by the compiler ("…/gcc", "…/clang"), not by index.
INSTANTIATE_TEST_SUITE_P(Compilers, CliWithCompiler, ::testing::Values("gcc", "clang"),
                         [](const ::testing::TestParamInfo<const char *> &info) { return std::string(info.param); });

TEST_F(Cli, DependenciesOnStdoutAreRewrittenToo) {
  Result r = hcc({"-c", "src/x.c", "-MMD", "-MF", "-"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "x.o: src/x.c src/h.h\n");
}

TEST_F(Cli, KernelStyleDependencyOption) {
  Result r = hcc({"-c", "src/x.c", "-Wp,-MMD,.x.o.d"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(work_ / ".x.o.d"), "x.o: src/x.c src/h.h\n");
}

TEST_F(Cli, BlanksInSourceAndTempPaths) {
  std::string spaced_tmp = work_ / "tmp with blank";
  fs::create_directories(spaced_tmp);
  write_file(work_ / "my src/a b.c", "#include \"h h.h\"\nint ab(void) { return HH; }\n");
  write_file(work_ / "my src/h h.h", "#define HH 3\n");
  Result r = hcc({"-c", "my src/a b.c", "-MMD"}, {{"TMPDIR", spaced_tmp}});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(instrumented("a b.o"));
  EXPECT_EQ(read_file(work_ / "a b.d"), "a\\ b.o: my\\ src/a\\ b.c my\\ src/h\\ h.h\n");
  EXPECT_TRUE(fs::is_empty(spaced_tmp));
}

TEST_F(Cli, TerminatedHccStopsTheCompilerCleansUpAndDiesOfTheSignal) {
  std::string pid_file = work_ / "compiler.pid";
  write_file(work_ / "slowcc", "#!/bin/sh\necho $$ > '" + pid_file + ".tmp'\nmv '" + pid_file +
                                   ".tmp' '" + pid_file + "'\nexec sleep 60\n", true);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::chdir(work_.path().c_str());
    for (const auto &[k, v] : env()) {
      if (v) ::setenv(k.c_str(), v->c_str(), 1);
      else ::unsetenv(k.c_str());
    }
    std::string opt = "--hcc-compiler=" + (work_ / "slowcc");
    ::execl(kHcc.c_str(), kHcc.c_str(), opt.c_str(), "-c", "src/x.c", (char *)nullptr);
    ::_exit(127);
  }
  // Wait (bounded) until the compiler runs, i.e. hcc has made its temp files.
  // Up to 120 s: hcc instruments x.c first, which takes seconds on a loaded
  // machine; a hang still fails here.
  for (int i = 0; i < 12000 && !exists(pid_file); ++i) ::usleep(10000);
  ASSERT_TRUE(exists(pid_file)) << "the fake compiler never started";
  EXPECT_FALSE(fs::is_empty(tmp_));
  pid_t compiler = std::stoi(read_file(pid_file));
  ::kill(pid, SIGTERM);
  int st = 0;
  ::waitpid(pid, &st, 0);
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM) << "status " << st;
  EXPECT_EQ(::kill(compiler, 0), -1) << "hcc left its compiler running";
  EXPECT_TRUE(fs::is_empty(tmp_));
}

// ---- failures and exit status --------------------------------------------

TEST_F(Cli, InstrumentorFailureWarnsOnceAndCompilesTheOriginal) {
  write_file(work_ / "src/f.c", "/* HCC_STANDIN_FAIL */\nint f(void) { return 1; }\n");
  Result r = hcc({"-c", "src/f.c", "src/x.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "hcc: warning: could not instrument 'src/f.c'; compiled it uninstrumented "
            "(--hcc-verbose shows why)\n");
  EXPECT_TRUE(exists(work_ / "f.o"));
  EXPECT_FALSE(instrumented("f.o"));
  EXPECT_TRUE(instrumented("x.o"));  // the other source still is

  Result v = hcc({"--hcc-verbose", "-c", "src/f.c"});
  EXPECT_NE(v.err.find("stand-in: 'src/f.c' asks to fail"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("exited with status 1"), std::string::npos) << v.err;
}

TEST_F(Cli, InstrumentorFailureOnBrokenCodeLeavesOnlyTheCompilersDiagnostics) {
  write_file(work_ / "src/bad.c", "/* HCC_STANDIN_FAIL */\nint bad(void) { return 1 }\n");
  Result r = hcc({"-c", "src/bad.c"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.err.find("hcc:"), std::string::npos) << "hcc added to the compiler's diagnostics: " << r.err;
  EXPECT_NE(r.err.find("src/bad.c:2:"), std::string::npos) << r.err;
}

TEST_F(Cli, MissingInstrumentorStillBuilds) {
  Result r = hcc({"-c", "src/x.c"}, {{"HCC_INSTRUMENTOR", work_ / "no-such-tool"}});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(count(r.err, "hcc: warning: could not instrument 'src/x.c'"), 1u) << r.err;
  EXPECT_TRUE(exists(work_ / "x.o"));
}

TEST_F(Cli, BrokenInstrumentationFallsBackToTheOriginal) {
  write_file(work_ / "src/b.c", "/* HCC_STANDIN_BREAK */\nint b(void) { return 2; }\n");
  Result r = hcc({"-c", "src/b.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err,
            "hcc: warning: instrumentation broke the compile of 'src/b.c'; built uninstrumented "
            "instead (--hcc-verbose shows the errors)\n");
  EXPECT_TRUE(exists(work_ / "b.o"));
  EXPECT_FALSE(instrumented("b.o"));
}

TEST_F(Cli, ExitStatusAndSignalsOfTheCompilerPropagate) {
  std::string calls_file = work_ / "compiler.calls";
  auto fake = [&](const std::string &name, const std::string &body) {
    write_file(work_ / name, "#!/bin/sh\necho x >> '" + calls_file + "'\n" + body + "\n", true);
    return "--hcc-compiler=" + (work_ / name);
  };
  auto ncalls = [&] {
    size_t n = lines_of(read_file(calls_file)).size();
    fs::remove(calls_file);
    return n;
  };

  EXPECT_EQ(hcc({fake("exit3", "exit 3"), "-c", "src/x.c"}).status, 3);
  EXPECT_EQ(ncalls(), 2u);  // instrumented, then the original
  EXPECT_EQ(hcc({fake("exit3", "exit 3"), "--version"}).status, 3);  // exec'd
  EXPECT_EQ(ncalls(), 1u);

  // A crash is retried with the original source (it may be ours); a
  // termination request is not.
  EXPECT_EQ(hcc({fake("segv", "kill -SEGV $$"), "-c", "src/x.c"}).status, 128 + SIGSEGV);
  EXPECT_EQ(ncalls(), 2u);
  EXPECT_EQ(hcc({fake("term", "kill -TERM $$"), "-c", "src/x.c"}).status, 128 + SIGTERM);
  EXPECT_EQ(ncalls(), 1u);
}

TEST_F(Cli, UnknownHccOptionIsAnError) {
  Result r = hcc({"--hcc-verbos", "-c", "src/x.c"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown option '--hcc-verbos'"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(work_ / "x.o"));
}

TEST_F(Cli, CompilerNotFound) {
  Result r = hcc({"--hcc-compiler=no-such-compiler-xyz", "-c", "src/x.c"});
  EXPECT_EQ(r.status, 127);
  EXPECT_NE(r.err.find("'no-such-compiler-xyz'"), std::string::npos) << r.err;
}

// ---- options and configuration --------------------------------------------

TEST_F(Cli, VersionAndShowConfig) {
  Result v = hcc({"--hcc-version"});
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out, "hcc " HCC_TEST_VERSION "\n");

  Result c = hcc({"--hcc-show-config", "gcc", "-c", "src/x.c"});
  EXPECT_EQ(c.status, 0) << c.err;
  auto lines = lines_of(c.out);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "prefix:       " + build_prefix()), lines.end()) << c.out;
  EXPECT_NE(c.out.find("instrumentor: " + kStandin + " (from HCC_INSTRUMENTOR)"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("compiler:     gcc -> "), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("(first argument (prefix mode))"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("wrapper:      on"), std::string::npos) << c.out;
  EXPECT_FALSE(exists(work_ / "x.o"));  // show-config compiles nothing

  Result cpp = hcc({"--hcc-show-config", "-c", "src/k.cpp"});
  EXPECT_NE(cpp.out.find("compiler:     c++ -> "), std::string::npos) << cpp.out;
  Result env = hcc({"--hcc-show-config", "-c", "src/x.c"}, {{"HCC_COMPILER", "clang -m64"}});
  EXPECT_NE(env.out.find("compiler:     clang -m64 -> "), std::string::npos) << env.out;
  EXPECT_NE(env.out.find("(HCC_COMPILER)"), std::string::npos) << env.out;
  Result off = hcc({"--hcc-show-config"}, {{"HCC_WRAPPER", "off"}});
  EXPECT_NE(off.out.find("wrapper:      off (HCC_WRAPPER)"), std::string::npos) << off.out;
}

// `--hcc-help`: at most 40 lines on stdout, naming every option the driver
// accepts (the list its unknown-option error gives) and only HCC_* variables
// the runtime's table (runtime/core/env.cpp) knows.
TEST_F(Cli, HccHelpNamesEveryOptionInFortyLines) {
  Result h = hcc({"--hcc-help"});
  EXPECT_EQ(h.status, 0) << h.err;
  EXPECT_EQ(h.err, "");
  const auto lines = lines_of(h.out);
  EXPECT_LE(lines.size(), 40u) << h.out;
  EXPECT_GE(lines.size(), 20u) << h.out;
  for (const auto &l : lines) EXPECT_LE(l.size(), 100u) << l;

  Result bad = hcc({"--hcc-no-such-option"});
  const size_t known = bad.err.find("(known: ");
  ASSERT_NE(known, std::string::npos) << bad.err;
  std::string list = bad.err.substr(known + 8, bad.err.find(')', known) - known - 8);
  std::stringstream ss(list);
  int options = 0;
  for (std::string o; std::getline(ss, o, ',');) {
    o.erase(0, o.find_first_not_of(' '));
    o = o.substr(0, o.find_first_of("=|"));  // --hcc-compiler=CMD -> --hcc-compiler
    EXPECT_NE(h.out.find("  " + o), std::string::npos) << o << " is not in --hcc-help";
    ++options;
  }
  EXPECT_GE(options, 14);
  EXPECT_NE(list.find("--hcc-help"), std::string::npos) << list;

  // The configuration table's names (config/, hcc-config-doc names), one a line.
  const Result names = run({HCC_TEST_ENV_NAMES, "names"}, work_.path());
  ASSERT_EQ(names.status, 0) << names.err;
  const std::string table = "\n" + names.out;
  int variables = 0;
  for (size_t p = 0; (p = h.out.find("HCC_", p)) != std::string::npos; ++variables) {
    size_t e = p + 4;
    while (e < h.out.size() && (std::isupper((unsigned char)h.out[e]) || h.out[e] == '_')) ++e;
    const std::string name = h.out.substr(p, e - p);
    EXPECT_NE(table.find("\n" + name + "\n"), std::string::npos) << name << " is not in the configuration table (config/)";
    p = e;
  }
  EXPECT_GE(variables, 15);
}

// `hcc --help` is the compiler's own help, after one line naming --hcc-help.
TEST_F(Cli, HelpIsTheCompilersAfterALineNamingHccHelp) {
  Result plain = run({"gcc", "--help"}, work_.path());
  ASSERT_EQ(plain.status, 0) << plain.err;
  Result h = hcc({"gcc", "--help"});
  EXPECT_EQ(h.status, 0) << h.err;
  const std::string first = "hcc: the compiler's help follows; hcc's own options: hcc --hcc-help\n";
  ASSERT_EQ(h.out.substr(0, first.size()), first) << h.out.substr(0, 200);
  EXPECT_EQ(h.out.substr(first.size()), plain.out);
  // Passed through untouched when hcc is off.
  Result off = hcc({"gcc", "--help"}, {{"HCC_WRAPPER", "off"}});
  EXPECT_EQ(off.out, plain.out);
}

TEST_F(Cli, KeepPrintsAndKeepsTheInstrumentedSource) {
  expect_kept_files_ = true;
  Result r = hcc({"--hcc-keep", "-c", "src/x.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string prefix = "hcc: kept instrumented source of 'src/x.c': ";
  ASSERT_EQ(r.err.rfind(prefix, 0), 0u) << r.err;
  std::string kept = r.err.substr(prefix.size());
  kept.pop_back();  // newline
  EXPECT_EQ(kept.rfind(tmp_ + "/hcc-", 0), 0u) << kept;
  EXPECT_EQ(read_file(kept).rfind("#line 1 \"src/x.c\"\n#include \"h.h\"\n", 0), 0u);
}

TEST_F(Cli, NestedHccPassesThroughInsteadOfInstrumentingTwice) {
  // Like `hcc mpicxx …` where mpicxx itself was configured to call hcc.
  write_file(work_ / "wrapper", "#!/bin/sh\nexec '" + kHcc + "' \"$@\"\n", true);
  Result r = hcc({work_ / "wrapper", "-c", "src/x.c"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(instrumented("x.o"));
  EXPECT_EQ(calls().size(), 1u);
}

TEST_F(Cli, StaticLinkIsRefused) {
  Result r = hcc({"-static", "src/main.c", "src/util.c", "-o", "app"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("-static"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(work_ / "app"));
}

// ---- linking, in a relocated prefix ---------------------------------------

// A complete hcc installation in a scratch dir: a copy of the built hcc, the
// stand-in as libexec/hcc/hcc-instrument, a stub runtime as lib/libhcc.so.
void make_prefix(const std::string &prefix) {
  fs::create_directories(prefix + "/bin");
  fs::create_directories(prefix + "/lib");
  fs::create_directories(prefix + "/libexec/hcc");
  fs::copy_file(kHcc, prefix + "/bin/hcc");
  fs::copy_file(HCC_STUB_RUNTIME, prefix + "/lib/libhcc.so");
  fs::copy_file(kStandin, prefix + "/libexec/hcc/hcc-instrument");
  fs::create_directory_symlink(HCC_TEST_INCLUDE_DIR, prefix + "/include");
}

TEST_F(Cli, RelocatedPrefixLinksTheRuntimeAndTheProgramRuns) {
  ScratchDir root;
  std::string prefix = root / "hcc-a";
  make_prefix(prefix);
  EnvChanges e = env({{"HCC_INSTRUMENTOR", std::nullopt}, {"HCC_STANDIN_PROBE", "1"}});
  auto hcc_at = [&](const std::string &pfx, Args args) {
    args.insert(args.begin(), pfx + "/bin/hcc");
    return run(args, work_.path(), e);
  };
  auto run_app = [&](const std::string &app) {
    return run({work_ / app}, work_.path(), {{"LD_LIBRARY_PATH", std::nullopt}});
  };

  Result c = hcc_at(prefix, {"--hcc-show-config"});
  EXPECT_NE(c.out.find("prefix:       " + prefix + "\n"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("runtime:      " + prefix + "/lib/libhcc.so\n"), std::string::npos) << c.out;
  // This prefix has no link stub (links fall back to the runtime); the
  // build tree's hcc has one.
  EXPECT_NE(c.out.find("link stub:    " + prefix + "/lib/hcc-link/libhcc.so [missing: links read the runtime itself]\n"),
            std::string::npos)
      << c.out;
  Result built = run({kHcc, "--hcc-show-config"}, work_.path(), e);
  EXPECT_NE(built.out.find("/lib/hcc-link/libhcc.so\n"), std::string::npos) << built.out;

  // Compile and link in one command.
  Result r = hcc_at(prefix, {"-O2", "src/main.c", "src/util.c", "-o", "app"});
  ASSERT_EQ(r.status, 0) << r.err;
  Result a = run_app("app");
  EXPECT_EQ(a.status, 7);  // the program's own exit status
  EXPECT_EQ(a.out, "util=42\n");
  EXPECT_NE(a.err.find("hcc-stub: enters=2 exits=2"), std::string::npos) << a.err;

  // Separate compiles, then a link-only command.
  ASSERT_EQ(hcc_at(prefix, {"-c", "src/main.c", "-o", "main.o"}).status, 0);
  ASSERT_EQ(hcc_at(prefix, {"-c", "src/util.c", "-o", "util.o"}).status, 0);
  Result l = hcc_at(prefix, {"--hcc-verbose", "main.o", "util.o", "-o", "app2"});
  ASSERT_EQ(l.status, 0) << l.err;
  std::string lib = prefix + "/lib";
  EXPECT_NE(l.err.find("main.o util.o -o app2 -L" + lib + " -Wl,-rpath," + lib +
                       " -Wl,--defsym,__hcc_linked_by_hcc=1 -Wl,--push-state,--no-as-needed -lhcc -Wl,--pop-state\n"),
            std::string::npos) << l.err;
  Result a2 = run_app("app2");
  EXPECT_EQ(a2.out, "util=42\n");
  EXPECT_NE(a2.err.find("hcc-stub: enters=2 exits=2"), std::string::npos) << a2.err;

  // Shared libraries carry the runtime too; a partial link (-r) does not.
  Result so = hcc_at(prefix, {"--hcc-verbose", "-shared", "util.o", "-o", "libu.so"});
  EXPECT_EQ(so.status, 0) << so.err;
  EXPECT_NE(so.err.find(" -lhcc -Wl,--pop-state\n"), std::string::npos) << so.err;
  Result rel = hcc_at(prefix, {"--hcc-verbose", "-r", "main.o", "util.o", "-o", "both.o"});
  EXPECT_EQ(rel.status, 0) << rel.err;
  EXPECT_EQ(rel.err.find("-lhcc"), std::string::npos) << rel.err;

  // Move the whole installation: hcc follows it.
  std::string moved = root / "hcc-b";
  fs::rename(prefix, moved);
  Result m = hcc_at(moved, {"--hcc-verbose", "src/main.c", "util.o", "-o", "app3"});
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_NE(m.err.find("-include " + moved + "/include/hcc/detail/inject.h"), std::string::npos) << m.err;
  Result a3 = run_app("app3");
  EXPECT_EQ(a3.out, "util=42\n");
  EXPECT_NE(a3.err.find("hcc-stub: enters=2 exits=2"), std::string::npos) << a3.err;
}

// ---- per-language names and configure probes --------------------------------

TEST_F(Cli, PerLanguageNamesChooseCcAndCxxWhateverTheInputs) {
  // hcc-cc/hcc-c++ are symlinks to hcc made by the build (bin/).
  const std::string dir = fs::path(kHcc).parent_path().string();
  auto show = [&](const std::string &name, Args args) {
    Args argv = {dir + "/" + name, "--hcc-show-config"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv, work_.path(), env());
  };
  Result cc_link = show("hcc-cc", {"a.o", "-o", "app"});  // hcc alone would pick c++
  EXPECT_NE(cc_link.out.find("compiler:     cc -> "), std::string::npos) << cc_link.out;
  EXPECT_NE(cc_link.out.find("(the name hcc-cc)"), std::string::npos) << cc_link.out;
  Result cxx_c = show("hcc-c++", {"-c", "src/x.c"});  // like c++ x.c
  EXPECT_NE(cxx_c.out.find("compiler:     c++ -> "), std::string::npos) << cxx_c.out;
  Result prefix = show("hcc-cc", {"gcc", "-c", "src/x.c"});  // prefix mode still wins
  EXPECT_NE(prefix.out.find("compiler:     gcc -> "), std::string::npos) << prefix.out;
  EXPECT_NE(show("hcc-cc", {}).out.find("cmake:        "), std::string::npos);

  // Named wrappers, one word with the compiler in the name (make CC=hcc-gcc):
  // installed ones, and any other hcc-<compiler> symlink.
  for (const char *name : {"gcc", "g++", "clang", "clang++"}) {
    Result r = show(std::string("hcc-") + name, {"a.o", "-o", "app"});
    EXPECT_NE(r.out.find(std::string("compiler:     ") + name + " -> /"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(std::string("(the name hcc-") + name + ")"), std::string::npos) << r.out;
  }
  fs::create_symlink(kHcc, work_.path() + "/hcc-gcc-12");
  Result versioned = run({work_.path() + "/hcc-gcc-12", "--hcc-show-config"}, work_.path(), env());
  EXPECT_NE(versioned.out.find("compiler:     gcc-12 -> "), std::string::npos) << versioned.out;
}

TEST_F(Cli, ConftestProgramsAreCompiledPlain) {
  write_file(work_ / "conftest.c", "int main(void) { return 0; }\n");
  Result r = hcc({"-o", "conftest", "conftest.c"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(calls().empty()) << "the instrumentor ran on a configure probe";
  // No runtime either: a conftest that runs must not write a profile.
  EXPECT_EQ(read_file(work_ / "conftest").find("libhcc.so"), std::string::npos);
}

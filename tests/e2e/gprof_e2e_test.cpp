// The gprof view end to end: tests/e2e/programs/gprof_callgraph.c built
// through hcc (gcc and clang underneath, -O0 and -O2, PIE and not), run with
// HCC_GPROF=1; GNU gprof's own output on the gmon.out we wrote, and
// hcc-report --gprof on the profile, must both show our call counts and
// foo's self time about twice bar's. Plus hcc-report --callgraph=dot|svg.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "e2e_support.hpp"
#include "gprof_output.hpp"

using namespace hcc::e2e;

namespace {

struct Built {
  std::string dir, exe, out;  // scratch dir, instrumented program, its output directory
};

// Builds the program plain and through hcc with `flags`, runs both (the
// instrumented one with HCC_GPROF=1) and checks the output is the same.
Built build_and_run(const std::string &name, const std::string &cc, const std::string &flags) {
  Built b;
  b.dir = scratch_dir("gprof-" + name);
  const std::string src = shell_quote(programs_dir() + "/gprof_callgraph.c");
  const std::string plain = b.dir + "/plain", inst = b.dir + "/app";
  RunResult r = run(cc + " " + flags + " " + src + " -o " + shell_quote(plain));
  EXPECT_EQ(r.status, 0) << r.err;
  r = run(shell_quote(hcc_bin()) + " --hcc-functions=all --hcc-compiler=" + cc + " " + flags + " " + src + " -o " +
          shell_quote(inst));
  EXPECT_EQ(r.status, 0) << r.err;
  b.exe = inst;
  b.out = b.dir + "/out";
  const RunResult a = run(shell_quote(plain));
  const RunResult m = run("HCC_GPROF=1 HCC_OUTPUT_DIR=" + shell_quote(b.out) + " " + shell_quote(inst));
  EXPECT_EQ(m.status, 0) << m.err;
  EXPECT_EQ(a.out, m.out);
  EXPECT_NE(m.err.find("gmon.out written to"), std::string::npos) << m.err;
  return b;
}

// What the task asks of both GNU gprof's and our output.
void expect_call_graph(const GprofOutput &g, const std::string &what) {
  SCOPED_TRACE(what);
  ASSERT_TRUE(g.graph.count("foo") && g.graph.count("bar") && g.graph.count("leaf") && g.graph.count("rec"))
      << "functions missing from the call graph";
  EXPECT_EQ(g.graph.at("foo").callers.at("main"), "20/20");
  EXPECT_EQ(g.graph.at("bar").callers.at("main"), "20/21");
  EXPECT_EQ(g.graph.at("bar").callers.at("via"), "1/21");
  EXPECT_EQ(g.graph.at("leaf").callers.at("foo"), "20/41");
  EXPECT_EQ(g.graph.at("leaf").callers.at("bar"), "21/41");
  EXPECT_EQ(g.graph.at("main").callees.at("foo"), "20/20");
  EXPECT_EQ(g.graph.at("via").callees.at("bar"), "1/21");
  EXPECT_EQ(g.graph.at("foo").called, "20");
  EXPECT_EQ(g.graph.at("bar").called, "21");
  EXPECT_EQ(g.graph.at("leaf").called, "41");
  EXPECT_EQ(g.graph.at("rec").called, "1+9");
  EXPECT_EQ(g.graph.at("rec").callers.at("main"), "1/1");
  EXPECT_EQ(g.graph.at("rec").callers.at("rec"), "9");  // gprof's recursive line
  EXPECT_TRUE(g.graph.at("main").spontaneous);
}

// foo's own work is twice bar's per call in CPU time (gprof_callgraph.c):
// 20 calls against 21, so about 40/21 = 1.9. The self times are wall-clock
// on a shared machine, where another process can take the core for a while
// from either function: a wide band, and enough CPU time (0.21 s in bar)
// for those waits to even out.
bool self_time_ratio_ok(const GprofOutput &g, std::string &why) {
  if (!g.self_seconds.count("foo") || !g.self_seconds.count("bar")) {
    why = "foo or bar missing from the flat profile";
    return false;
  }
  const double foo = g.self_seconds.at("foo"), bar = g.self_seconds.at("bar");
  why = "foo " + std::to_string(foo) + " s, bar " + std::to_string(bar) + " s self time";
  return bar > 0 && foo / bar > 1.3 && foo / bar < 3.0;
}

void check(const std::string &name, const std::string &cc, const std::string &flags, bool pie) {
  const Built b = build_and_run(name, cc, flags);
  const RunResult elf = run("readelf -h " + shell_quote(b.exe));
  EXPECT_NE(elf.out.find(pie ? "DYN (Position-Independent" : "EXEC (Executable"), std::string::npos) << elf.out;
  // The counts are exact on every run. The time ratio is checked on up to
  // three runs of the same program: a burst of other work on the machine
  // can land on either function in one run, not in three (both outputs
  // must agree on the same run).
  std::string why;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const std::string out = b.out + (attempt ? "-" + std::to_string(attempt) : "");
    if (attempt) {
      const RunResult again = run("HCC_GPROF=1 HCC_OUTPUT_DIR=" + shell_quote(out) + " " + shell_quote(b.exe));
      ASSERT_EQ(again.status, 0) << again.err;
    }
    const RunResult gp = run("gprof -b " + shell_quote(b.exe) + " " + shell_quote(out + "/gmon.out"));
    ASSERT_EQ(gp.status, 0) << gp.err;
    const RunResult rp = run(shell_quote(report_bin()) + " --gprof " + shell_quote(out));
    ASSERT_EQ(rp.status, 0) << rp.err;
    const GprofOutput g = parse_gprof(gp.out), h = parse_gprof(rp.out);
    expect_call_graph(g, "GNU gprof on gmon.out:\n" + gp.out);
    expect_call_graph(h, "hcc-report --gprof:\n" + rp.out);
    std::string why_g, why_h;
    const bool ok_g = self_time_ratio_ok(g, why_g), ok_h = self_time_ratio_ok(h, why_h);
    if (ok_g && ok_h) return;
    why += "run " + std::to_string(attempt + 1) + ": GNU gprof " + why_g + "; hcc-report " + why_h + "\n";
  }
  ADD_FAILURE() << "foo's self time is not about twice bar's in three runs:\n" << why;
}

bool have_dot() { return run("command -v dot").status == 0; }

// Runs `exe` with HCC_GPROF=1 (and `env`) writing into `out`, then GNU gprof
// on the gmon.out it wrote: gprof's output, or the run's failure.
RunResult run_then_gprof(const std::string &exe, const std::string &out, const std::string &env = "") {
  RunResult r = run(env + " HCC_GPROF=1 HCC_OUTPUT_DIR=" + shell_quote(out) + " " + shell_quote(exe));
  if (r.status != 0) return r;
  return run("gprof -b " + shell_quote(exe) + " " + shell_quote(out + "/gmon.out"));
}

}  // namespace

TEST(GprofView, GnuGprofAndReportAgreeGccO0Pie) { check("gcc-O0-pie", "gcc", "-O0", true); }
TEST(GprofView, GnuGprofAndReportAgreeGccO2NoPie) { check("gcc-O2-nopie", "gcc", "-O2 -no-pie", false); }
// -O2 inlines these small functions into their callers; the guard keeps
// each one's identity, and the out-of-line copy the linker keeps gives gprof
// its address.
TEST(GprofView, GnuGprofAndReportAgreeClangO2Pie) { check("clang-O2-pie", "clang", "-O2", true); }

TEST(GprofView, ReportLocationZeroIsTheOnlyThread) {
  const Built b = build_and_run("location", "gcc", "-O1");
  const RunResult all = run(shell_quote(report_bin()) + " --gprof " + shell_quote(b.out));
  const RunResult one = run(shell_quote(report_bin()) + " --gprof --location 0 " + shell_quote(b.out));
  ASSERT_EQ(one.status, 0) << one.err;
  expect_call_graph(parse_gprof(one.out), one.out);
  EXPECT_NE(one.out.find("location 0 only"), std::string::npos);
  const RunResult bad = run(shell_quote(report_bin()) + " --gprof --location 1 " + shell_quote(b.out));
  EXPECT_EQ(bad.status, 2);
  (void)all;
}

TEST(GprofView, CallgraphDotNodesEdgesClustersAndFocus) {
  const Built b = build_and_run("dot", "gcc", "-O1");
  const RunResult d = run(shell_quote(report_bin()) + " --callgraph=dot " + shell_quote(b.out));
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_EQ(d.out.rfind("digraph callgraph {", 0), 0u) << d.out;
  // One node per function, in the cluster of its source file.
  for (const char *f : {"main", "foo", "bar", "leaf", "via", "rec"})
    EXPECT_NE(d.out.find(std::string("label=\"") + f + "\\nself "), std::string::npos) << f << "\n" << d.out;
  EXPECT_NE(d.out.find("subgraph cluster_0 {\n    label=\""), std::string::npos);
  EXPECT_NE(d.out.find("gprof_callgraph.c\""), std::string::npos);
  // Edge labels are call counts: 20 (main→foo, main→bar), 21 (bar→leaf), 1 (via→bar).
  EXPECT_NE(d.out.find("[label=\"21\""), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("[label=\"9 recursive\""), std::string::npos) << d.out;

  const RunResult f = run(shell_quote(report_bin()) + " --callgraph=dot --callgraph-focus=bar " + shell_quote(b.out));
  ASSERT_EQ(f.status, 0) << f.err;
  for (const char *in : {"bar", "main", "via"})
    EXPECT_NE(f.out.find(std::string("label=\"") + in + "\\n"), std::string::npos) << in << "\n" << f.out;
  for (const char *out : {"foo", "leaf", "rec"})  // not callers of bar
    EXPECT_EQ(f.out.find(std::string("label=\"") + out + "\\n"), std::string::npos) << out << "\n" << f.out;
  const RunResult none = run(shell_quote(report_bin()) + " --callgraph=dot --callgraph-focus=nosuch " + shell_quote(b.out));
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("no function named 'nosuch'"), std::string::npos) << none.err;

  const RunResult svg = run(shell_quote(report_bin()) + " --callgraph=svg " + shell_quote(b.out));
  if (have_dot()) {
    ASSERT_EQ(svg.status, 0) << svg.err;
    EXPECT_NE(svg.out.find("<svg"), std::string::npos);
    EXPECT_NE(svg.out.find(">leaf</text>"), std::string::npos);
  } else {
    EXPECT_EQ(svg.status, 2);
    EXPECT_NE(svg.err.find("Graphviz"), std::string::npos) << svg.err;
  }
}

TEST(GprofView, BadHccGprofValueWritesNoGmonOut) {
  const std::string dir = scratch_dir("gprof-bad");
  const std::string exe = dir + "/app";
  RunResult r = run(shell_quote(hcc_bin()) + " -O1 " + shell_quote(programs_dir() + "/gprof_callgraph.c") + " -o " +
                    shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  r = run("HCC_GPROF=2 HCC_OUTPUT_DIR=" + shell_quote(dir + "/out") + " " + shell_quote(exe));
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("hcc: error: HCC_GPROF='2' is not on, off, 1, 0, yes, no, true or false; no gmon.out written\n"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/gmon.out"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/out/profile.cubex"));
}

// Threads are summed in gmon.out: each worker thread's root `worker` is
// spontaneous, its calls add up across threads.
TEST(GprofView, ThreadsAreSummedInGmonOut) {
  const std::string dir = scratch_dir("gprof-threads");
  const std::string exe = dir + "/app", out = dir + "/out";
  RunResult r = run(shell_quote(hcc_bin()) + " --hcc-functions=all -O2 " +
                    shell_quote(programs_dir() + "/gprof_threads.c") + " -o " + shell_quote(exe) + " -lpthread");
  ASSERT_EQ(r.status, 0) << r.err;
  const RunResult gp = run_then_gprof(exe, out);
  ASSERT_EQ(gp.status, 0) << gp.err;
  const GprofOutput g = parse_gprof(gp.out);
  ASSERT_TRUE(g.graph.count("foo") && g.graph.count("worker")) << gp.out;
  EXPECT_EQ(g.graph.at("foo").callers.at("worker"), "20/21") << gp.out;
  EXPECT_EQ(g.graph.at("foo").callers.at("main"), "1/21") << gp.out;
  EXPECT_EQ(g.graph.at("bar").callers.at("worker"), "20/20") << gp.out;
  EXPECT_EQ(g.graph.at("leaf").called, "41") << gp.out;
  EXPECT_TRUE(g.graph.at("worker").spontaneous) << gp.out;
  // One thread in hcc-report: location 1 is the first worker.
  const RunResult one = run(shell_quote(report_bin()) + " --gprof --location 1 " + shell_quote(out));
  ASSERT_EQ(one.status, 0) << one.err;
  const GprofOutput w = parse_gprof(one.out);
  ASSERT_TRUE(w.graph.count("foo")) << one.out;
  EXPECT_EQ(w.graph.at("foo").callers.at("worker"), "10/10") << one.out;
  EXPECT_EQ(w.graph.count("main"), 0u) << one.out;
}

// Indirect recursion shade -> bounce -> shade': gmon.out has the exact arcs
// (GNU gprof makes them a cycle: bounce calls shade 3400 times, shade calls
// bounce 3800 times), and hcc-report pairs the recursive calls with bounce,
// the call path that made them (metric recursive_calls).
TEST(GprofView, MutualRecursionArcsGoToTheRealCaller) {
  const std::string dir = scratch_dir("gprof-mutual");
  const std::string exe = dir + "/app", out = dir + "/out";
  RunResult r = run(shell_quote(hcc_bin()) + " --hcc-functions=all -O0 " + shell_quote(programs_dir() + "/mutual.c") +
                    " -o " + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  const RunResult gp = run_then_gprof(exe, out);
  ASSERT_EQ(gp.status, 0) << gp.err;
  const GprofOutput g = parse_gprof(gp.out);
  ASSERT_TRUE(g.graph.count("shade") && g.graph.count("bounce")) << gp.out;
  EXPECT_EQ(g.graph.at("shade").callers.at("main"), "100/100") << gp.out;
  EXPECT_EQ(g.graph.at("shade").callers.at("bounce"), "3400") << gp.out;
  EXPECT_EQ(g.graph.at("bounce").callers.at("shade"), "3800") << gp.out;
  EXPECT_EQ(g.graph.at("absorb").callers.at("bounce"), "3800/3800") << gp.out;

  const RunResult rp = run(shell_quote(report_bin()) + " --gprof " + shell_quote(out));
  ASSERT_EQ(rp.status, 0) << rp.err;
  const GprofOutput h = parse_gprof(rp.out);
  ASSERT_TRUE(h.graph.count("shade") && h.graph.count("bounce")) << rp.out;
  EXPECT_EQ(h.graph.at("shade").called, "100+3400") << rp.out;
  EXPECT_EQ(h.graph.at("shade").callers.at("main"), "100/100") << rp.out;
  EXPECT_EQ(h.graph.at("shade").callers.at("bounce"), "3400") << rp.out;
  EXPECT_EQ(h.graph.at("shade").callers.count("shade"), 0u) << rp.out;  // not a self-recursion
  EXPECT_EQ(h.graph.at("bounce").callees.at("shade"), "3400") << rp.out;
  EXPECT_EQ(h.graph.at("bounce").callers.at("shade"), "3800/3800") << rp.out;
}

// gprof reads one binary: a function compiled into a shared library (here
// built through hcc too) has no symbol in the executable, so its time and
// calls count for its caller there, and the run names it.
TEST(GprofView, SharedLibraryFunctionCountsForItsCallerInTheExecutable) {
  const std::string dir = scratch_dir("gprof-dso");
  const std::string lib = dir + "/libwork.so", exe = dir + "/app", out = dir + "/out";
  std::ofstream(dir + "/work.c") << "volatile double sink;\n"
                                    "void libwork(void) { for (long i = 0; i < 3000000; ++i) sink += i * 0.5; }\n";
  std::ofstream(dir + "/main.c") << "void libwork(void);\n"
                                    "void caller(void) { libwork(); }\n"
                                    "int main(void) { for (int i = 0; i < 3; ++i) caller(); return 0; }\n";
  RunResult r = run(shell_quote(hcc_bin()) + " --hcc-functions=all -O1 -shared -fPIC " + shell_quote(dir + "/work.c") +
                    " -o " + shell_quote(lib));
  ASSERT_EQ(r.status, 0) << r.err;
  r = run(shell_quote(hcc_bin()) + " --hcc-functions=all -O1 " + shell_quote(dir + "/main.c") + " -o " +
          shell_quote(exe) + " -L" + shell_quote(dir) + " -lwork -Wl,-rpath," + shell_quote(dir));
  ASSERT_EQ(r.status, 0) << r.err;
  r = run("HCC_GPROF=1 HCC_OUTPUT_DIR=" + shell_quote(out) + " " + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("1 function(s) have no symbol in the executable"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": libwork"), std::string::npos) << r.err;
  const RunResult gp = run("gprof -b " + shell_quote(exe) + " " + shell_quote(out + "/gmon.out"));
  ASSERT_EQ(gp.status, 0) << gp.err;
  const GprofOutput g = parse_gprof(gp.out);
  ASSERT_TRUE(g.graph.count("caller")) << gp.out;
  EXPECT_EQ(g.graph.at("caller").callers.at("main"), "3/3") << gp.out;
  EXPECT_EQ(g.graph.count("libwork"), 0u) << gp.out;
  // libwork's loop is nearly all of the run: in gmon.out it is caller's self time.
  EXPECT_GT(g.self_seconds.at("caller"), 10 * g.self_seconds.at("main")) << gp.out;
  // hcc-report, reading the profile, still has libwork as a function of its own.
  const RunResult rp = run(shell_quote(report_bin()) + " --gprof " + shell_quote(out));
  const GprofOutput h = parse_gprof(rp.out);
  ASSERT_TRUE(h.graph.count("libwork")) << rp.out;
  EXPECT_EQ(h.graph.at("libwork").callers.at("caller"), "3/3") << rp.out;
}

// OpenMP: in gmon.out the constructs are part of the function they run in
// (kernel calls work 40 times, summed over both threads); hcc-report --gprof
// shows each construct as an entry with its caller.
TEST(GprofView, OpenMPConstructsAppearWithTheirCallers) {
  const std::string clang = HCC_OPENMP_CLANG;
  if (clang.empty()) GTEST_SKIP() << "no clang that builds OpenMP programs here";
  const std::string dir = scratch_dir("gprof-openmp");
  const std::string exe = dir + "/app", out = dir + "/out";
  RunResult r = run(shell_quote(hcc_bin()) + " --hcc-functions=all --hcc-compiler=" + shell_quote(clang) +
                    " -fopenmp -O1 " + shell_quote(programs_dir() + "/gprof_openmp.c") + " -o " + shell_quote(exe));
  ASSERT_EQ(r.status, 0) << r.err;
  const RunResult gp = run_then_gprof(exe, out, "OMP_NUM_THREADS=2");
  ASSERT_EQ(gp.status, 0) << gp.err;
  const GprofOutput g = parse_gprof(gp.out);
  ASSERT_TRUE(g.graph.count("work") && g.graph.count("kernel")) << gp.out;
  EXPECT_EQ(g.graph.at("work").callers.at("kernel"), "40/40") << gp.out;
  EXPECT_EQ(g.graph.at("kernel").callers.at("main"), "5/5") << gp.out;

  const RunResult rp = run(shell_quote(report_bin()) + " --gprof " + shell_quote(out));
  ASSERT_EQ(rp.status, 0) << rp.err;
  const GprofOutput h = parse_gprof(rp.out);
  std::string parallel, loop;
  for (const auto &[name, e] : h.graph) {
    if (name.rfind("!$omp parallel @", 0) == 0) parallel = name;
    if (name.rfind("!$omp for @", 0) == 0) loop = name;
  }
  ASSERT_FALSE(parallel.empty() || loop.empty()) << rp.out;
  EXPECT_EQ(h.graph.at(parallel).callers.count("kernel"), 1u) << rp.out;
  EXPECT_EQ(h.graph.at("work").callers.at(loop), "40/40") << rp.out;
  EXPECT_EQ(h.graph.at(loop).callers.count(parallel), 1u) << rp.out;
}

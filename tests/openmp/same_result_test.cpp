// The instrumented program computes what the plain one computes, and a file
// with any of these constructs keeps its instrumentation (no "could not
// instrument" fallback): programs/same_result/*, built plain and through
// hcc with gcc/libgomp and clang/libomp, run with 4 threads; the output must
// match and the construct's region must be in the profile with exact
// visits.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "e2e_support.hpp"

namespace hcc::e2e {
namespace {

const int kThreads = 4;

std::string same_result_dir() { return programs_dir() + "/same_result"; }

// The C++ driver beside a C one: gcc → g++; clang-19 → clang++-19, else
// clang++ in the same directory (/usr/lib/llvm-19/bin has no clang++-19).
std::string cxx_of(const std::string &cc) {
  const size_t slash = cc.rfind('/');
  const size_t base = slash == std::string::npos ? 0 : slash + 1;
  std::vector<std::string> candidates;
  if (cc.compare(base, 5, "clang") == 0) {
    candidates.push_back(cc.substr(0, base + 5) + "++" + cc.substr(base + 5));
    candidates.push_back(cc.substr(0, base) + "clang++");
  } else if (cc.compare(base, 3, "gcc") == 0) {
    candidates.push_back(cc.substr(0, base) + "g++" + cc.substr(base + 3));
  }
  for (const std::string &c : candidates)
    if (run("command -v " + shell_quote(c)).status == 0) return c;
  return cc;
}

struct Outcome {
  std::string dir, plain_out, hcc_out, hcc_err;
};

// Builds programs/same_result/FILE plain and through hcc with `tc` and the
// same flags, runs both; the hcc build must not fall back.
Outcome build_and_run(const Toolchain &tc, const std::string &file, const std::string &flags = "") {
  Outcome o;
  const std::string src = same_result_dir() + "/" + file;
  const bool cxx = file.size() > 4 && file.compare(file.size() - 4, 4, ".cpp") == 0;
  const std::string cc = cxx ? cxx_of(tc.cc) : tc.cc;
  o.dir = scratch_dir("same-result-" + file + "-" + tc.name);
  const std::string all = " -fopenmp -O2 " + flags + " ";
  RunResult c1 = run(cc + all + shell_quote(src) + " -o " + o.dir + "/plain");
  EXPECT_EQ(c1.status, 0) << c1.err;
  RunResult c2 = run("cd " + o.dir + " && " + hcc_bin() + " --hcc-functions=all --hcc-compiler=" + cc +
                     all + shell_quote(src) + " -o app");
  EXPECT_EQ(c2.status, 0) << c2.err;
  o.hcc_err = c2.err;
  EXPECT_EQ(c2.err.find("could not instrument"), std::string::npos) << c2.err;
  EXPECT_EQ(c2.err.find("uninstrumented"), std::string::npos) << c2.err;
  const std::string env = "OMP_NUM_THREADS=" + std::to_string(kThreads) + " OMP_DYNAMIC=false ";
  RunResult r1 = run(env + o.dir + "/plain");
  RunResult r2 = run("cd " + o.dir + " && " + env + "HCC_OUTPUT_DIR=" + o.dir + "/prof ./app");
  EXPECT_EQ(r1.status, 0) << r1.err;
  EXPECT_EQ(r2.status, 0) << r2.err;
  o.plain_out = r1.out;
  o.hcc_out = r2.out;
  return o;
}

// Line of the `// [tag]` comment in programs/same_result/FILE.
int tag_line(const std::string &file, const std::string &tag) {
  const std::string text = read_file(same_result_dir() + "/" + file);
  const size_t at = text.find("// [" + tag + "]");
  if (at == std::string::npos) return -1;
  return 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

// Visits, over all call paths and locations, of "!$omp WHAT @…/FILE:LINE".
long long region_visits(const Profile &p, const std::string &what, const std::string &file, int line) {
  const std::string head = "!$omp " + what + " @", tail = file + ":" + std::to_string(line);
  auto match = [&](const std::string &n) {
    if (n.compare(0, head.size(), head) != 0 || n.size() < head.size() + tail.size()) return false;
    if (n.compare(n.size() - tail.size(), tail.size(), tail) != 0) return false;
    return n.size() == head.size() + tail.size() || n[n.size() - tail.size() - 1] == '/';
  };
  long long v = 0;
  for (int c : p.callpaths_where(match))
    for (size_t l = 0; l < p.locations(); ++l) v += (long long)p.value(c, "visits", "excl", int(l));
  return v;
}

std::vector<Toolchain> compilers() {
  std::vector<Toolchain> t = {{"gcc", "gcc", "g++"}};
  if (std::string(HCC_OMP_E2E_CLANG).size()) t.push_back({"clang", HCC_OMP_E2E_CLANG, ""});
  return t;
}

class SameResult : public ::testing::TestWithParam<Toolchain> {};

// 1. The prelude includes no system header: the user's _GNU_SOURCE is the
// first feature macro glibc sees, so strcasestr is declared (an error
// otherwise, with -Werror=implicit-function-declaration).
TEST_P(SameResult, FeatureMacroBeforeIncludesReachesGlibcInC) {
  Outcome o = build_and_run(GetParam(), "feature_macros.c", "-Werror=implicit-function-declaration");
  EXPECT_EQ(o.hcc_out, o.plain_out);
  EXPECT_EQ(o.hcc_out, "glibc header before the program: 0\nfound at 10: OpenMP Programs\n");
  EXPECT_EQ(Profile::load(o.dir + "/prof").total_visits("find"), 1);
}

TEST_P(SameResult, FeatureMacroBeforeIncludesReachesGlibcInCxx) {
  Outcome o = build_and_run(GetParam(), "feature_macros.cpp");
  EXPECT_EQ(o.hcc_out, o.plain_out);
  EXPECT_EQ(o.hcc_out, "glibc header before the program: 0\nsame: 1, off_t bytes: 8\n");
  EXPECT_EQ(Profile::load(o.dir + "/prof").total_visits("same"), 1);
}

// Every macro the prelude defines is hcc's own (HCC_*, __hcc_*): nothing it
// defines can change the user's code. Compared with the compiler's own
// predefined macros, in C and C++, with -fopenmp.
TEST_P(SameResult, PreludeDefinesOnlyHccMacros) {
  const Toolchain tc = GetParam();
  for (const char *lang : {"c", "c++"}) {
    const std::string cc = std::string(lang) == "c" ? tc.cc : cxx_of(tc.cc);
    const std::string base = cc + " -fopenmp -dM -E -x " + lang + " /dev/null";
    RunResult plain = run(base);
    RunResult with = run(cc + " -fopenmp -dM -E -x " + lang + " -include " HCC_OMP_INCLUDE_DIR
                          "/hcc/detail/inject.h -include " HCC_OMP_INCLUDE_DIR
                          "/hcc/detail/inject_openmp.h /dev/null");
    ASSERT_EQ(plain.status, 0) << plain.err;
    ASSERT_EQ(with.status, 0) << with.err;
    auto names = [](const std::string &out) {
      std::set<std::string> s;
      std::istringstream in(out);
      for (std::string line; std::getline(in, line);) {
        std::istringstream ls(line);
        std::string define, name;
        ls >> define >> name;
        s.insert(name.substr(0, name.find('(')));
      }
      return s;
    };
    const std::set<std::string> before = names(plain.out), after = names(with.out);
    int added = 0;
    for (const std::string &n : after) {
      if (before.count(n)) continue;
      ++added;
      EXPECT_TRUE(n.rfind("HCC_", 0) == 0 || n.rfind("__hcc_", 0) == 0)
          << lang << ": the prelude defines " << n;
    }
    EXPECT_GT(added, 0) << "the prelude was not read";
    // No glibc header came with it.
    EXPECT_EQ(after.count("__GLIBC__"), before.count("__GLIBC__")) << lang;
  }
}

// 2. `parallel for reduction(inscan, …)` with scan inclusive/exclusive: kept
// whole (not split), the prefix sums are the plain ones, and the construct
// is one region on the encountering thread.
TEST_P(SameResult, InscanPrefixSumsAsPlain) {
  Outcome o = build_and_run(GetParam(), "inscan.c");
  EXPECT_EQ(o.hcc_out, o.plain_out);
  EXPECT_EQ(o.hcc_out, "inclusive 1 1998 3997\nexclusive 0 1994 3991\ncheck 598835\n");
  Profile p = Profile::load(o.dir + "/prof");
  EXPECT_EQ(region_visits(p, "parallel for", "inscan.c", tag_line("inscan.c", "inclusive")), 1);
  EXPECT_EQ(region_visits(p, "parallel for simd", "inscan.c", tag_line("inscan.c", "exclusive")), 1);
}

// 3. Detached tasks complete, with and without a taskwait; no barrier the
// program did not have is added at the end of their parallel regions.
TEST_P(SameResult, DetachedTasksRunToCompletion) {
  Outcome o = build_and_run(GetParam(), "detach.c");
  EXPECT_EQ(o.hcc_out, o.plain_out);
  EXPECT_EQ(o.hcc_out, "detached tasks done: 8 and 8\n");
  Profile p = Profile::load(o.dir + "/prof");
  const int a = tag_line("detach.c", "no taskwait"), b = tag_line("detach.c", "taskwait");
  EXPECT_EQ(region_visits(p, "parallel", "detach.c", a), kThreads);
  EXPECT_EQ(region_visits(p, "parallel", "detach.c", b), kThreads);
  EXPECT_EQ(region_visits(p, "for", "detach.c", b), kThreads);
  EXPECT_EQ(region_visits(p, "implicit barrier", "detach.c", a), 0);
}

// 4a. `parallel` whose statement is a `simd` left as written.
TEST_P(SameResult, ParallelOverSimdKeepsTheFileInstrumented) {
  Outcome o = build_and_run(GetParam(), "parallel_simd.c");
  EXPECT_EQ(o.hcc_out, o.plain_out);
  EXPECT_EQ(o.hcc_out, "sum 195840\n");
  Profile p = Profile::load(o.dir + "/prof");
  EXPECT_EQ(region_visits(p, "parallel", "parallel_simd.c", tag_line("parallel_simd.c", "parallel")), 2);
}

// 4b. `nowait` in a macro: no second nowait, no barrier added.
TEST_P(SameResult, NowaitFromAMacroIsNotAddedTwice) {
  Outcome o = build_and_run(GetParam(), "macro_nowait.c");
  EXPECT_EQ(o.hcc_out, o.plain_out);
  EXPECT_EQ(o.hcc_out, "sum 2080\n");
  Profile p = Profile::load(o.dir + "/prof");
  const int l = tag_line("macro_nowait.c", "for");
  EXPECT_EQ(region_visits(p, "for", "macro_nowait.c", l), kThreads);
}

// 4c. `task` whose statement is a `target` left as written.
TEST_P(SameResult, TaskOverTargetKeepsTheFileInstrumented) {
  Outcome o = build_and_run(GetParam(), "task_target.c");
  EXPECT_EQ(o.hcc_out, o.plain_out);
  EXPECT_EQ(o.hcc_out, "s 42\n");
  Profile p = Profile::load(o.dir + "/prof");
  const int l = tag_line("task_target.c", "task");
  EXPECT_EQ(region_visits(p, "create task", "task_target.c", l), 1);
  EXPECT_EQ(region_visits(p, "task", "task_target.c", l), 1);
}

// 4d. A loop holding `cancel for` keeps its implicit barrier (no nowait).
TEST_P(SameResult, CancelForKeepsTheImplicitBarrier) {
  Outcome o = build_and_run(GetParam(), "cancel_for.c");
  EXPECT_EQ(o.hcc_out, o.plain_out);
  EXPECT_EQ(o.hcc_out, "seen 100 sum 9900\n");
  Profile p = Profile::load(o.dir + "/prof");
  const int l = tag_line("cancel_for.c", "for");
  EXPECT_EQ(region_visits(p, "for", "cancel_for.c", l), kThreads);
  EXPECT_EQ(region_visits(p, "atomic", "cancel_for.c", l + 6), 100);
}

INSTANTIATE_TEST_SUITE_P(Compilers, SameResult, ::testing::ValuesIn(compilers()),
                         [](const auto &info) { return info.param.name; });

}  // namespace
}  // namespace hcc::e2e

// hcc-report's folded stacks and diff on a real program built through `hcc`
// (programs/views.c: fib(20), 50 calls through a pointer, N calls of leaf).
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "e2e_support.hpp"

using namespace hcc::e2e;

namespace {

// Builds programs/views.c once per test binary run (every function
// instrumented: the counts below are of one-line functions).
const std::string &views_exe() {
  static const std::string exe = [] {
    const std::string dir = scratch_dir("views-build");
    const std::string out = dir + "/views";
    const RunResult r = run(shell_quote(hcc_bin()) + " --hcc-functions=all -O1 " +
                            shell_quote(programs_dir() + "/views.c") + " -o " + shell_quote(out));
    EXPECT_EQ(r.status, 0) << r.err;
    return out;
  }();
  return exe;
}

// Runs it with `leaves` calls of leaf; returns the output directory.
std::string run_views(const std::string &name, long leaves) {
  const std::string out = scratch_dir(name) + "/out";
  const RunResult r = run("HCC_OUTPUT_DIR=" + shell_quote(out) + " " + shell_quote(views_exe()) + " " +
                          std::to_string(leaves));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("fib(20) = 6765"), std::string::npos) << r.out;
  return out;
}

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

bool ends_with(const std::string &s, const std::string &tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Columns 4-6 of a diff row: visits A, B, B-A (after time A, B, B-A).
std::vector<std::string> visit_cells(const std::string &line) {
  std::istringstream in(line);
  std::vector<std::string> f;
  for (std::string w; in >> w && f.size() < 6;) f.push_back(w);
  return f.size() == 6 ? std::vector<std::string>(f.begin() + 3, f.end()) : f;
}

// "a;b;c 12" -> {"a;b;c", 12}
std::pair<std::string, long long> split_folded(const std::string &line) {
  const auto sp = line.rfind(' ');
  return {line.substr(0, sp), std::stoll(line.substr(sp + 1))};
}

}  // namespace

TEST(FoldedStacks, VisitsOfRecursiveFibAndCallsThroughAPointer) {
  const std::string out = run_views("folded-visits", 0);
  const RunResult r = run(shell_quote(report_bin()) + " --folded --metric visits " + shell_quote(out));
  ASSERT_EQ(r.status, 0) << r.err;
  long long fib = 0;
  bool nothing = false;
  for (const std::string &l : lines_of(r.out)) {
    const auto [stack, value] = split_folded(l);
    EXPECT_GT(value, 0) << "zero lines are left out: " << l;
    EXPECT_EQ(stack.find(' '), std::string::npos) << l;  // C names here have no spaces
    const auto semi = stack.rfind(';');
    if (stack.substr(semi == std::string::npos ? 0 : semi + 1) == "fib") fib += value;
    if (l == "main;callsvia;nothing 50") nothing = true;
  }
  EXPECT_EQ(fib, 21891) << r.out;  // fib(20) calls fib 21891 times (folded onto main;fib)
  EXPECT_TRUE(nothing) << r.out;
}

// Default metric: exclusive time in integer microseconds; the lines add up to
// the program's total time (each rounded, so within one µs per line).
TEST(FoldedStacks, TimeInMicrosecondsAddsUpToTheTotal) {
  const std::string out = run_views("folded-time", 100000);
  const RunResult r = run(shell_quote(report_bin()) + " --folded " + shell_quote(out));
  ASSERT_EQ(r.status, 0) << r.err;
  long long sum = 0;
  const auto lines = lines_of(r.out);
  for (const std::string &l : lines) sum += split_folded(l).second;
  const Profile p = Profile::load(out);
  double total = 0;
  for (const auto &c : p.json()["callpaths"])
    if (c["parent"].get<int>() < 0)
      for (const auto &v : c["values"]["time"]["incl"]) total += v.get<double>();
  EXPECT_NEAR(double(sum), total * 1e6, double(lines.size()) + 1.0) << r.out;
  EXPECT_GT(sum, 0);

  const RunResult bad = run(shell_quote(report_bin()) + " --folded --metric nosuch " + shell_quote(out));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("no metric 'nosuch'"), std::string::npos) << bad.err;
}

// Two runs of one program, 200000 and 600000 calls of leaf: matched by the
// names along the call path, plain integers for counts.
TEST(ProfileDiff, LeafVisitsTripleBetweenRuns) {
  const std::string a = run_views("diff-a", 200000), b = run_views("diff-b", 600000);
  const RunResult t = run(shell_quote(report_bin()) + " --diff " + shell_quote(a) + " " + shell_quote(b));
  ASSERT_EQ(t.status, 0) << t.err;
  bool leaf = false, fib = false;
  for (const std::string &l : lines_of(t.out)) {
    if (ends_with(l, "main \u2192 leaf")) {
      leaf = true;
      EXPECT_EQ(visit_cells(l), (std::vector<std::string>{"200000", "600000", "+400000"})) << l;
    }
    if (ends_with(l, "main \u2192 fib")) {
      fib = true;
      EXPECT_EQ(visit_cells(l), (std::vector<std::string>{"21891", "21891", "+0"})) << l;
    }
  }
  EXPECT_TRUE(leaf) << t.out;
  EXPECT_TRUE(fib) << t.out;

  const RunResult j = run(shell_quote(report_bin()) + " --diff " + shell_quote(a) + " " + shell_quote(b) + " --json");
  ASSERT_EQ(j.status, 0) << j.err;
  const auto d = nlohmann::json::parse(j.out);
  EXPECT_EQ(d["metrics"][0]["name"], "time");
  EXPECT_EQ(d["metrics"][1]["name"], "visits");
  bool found = false;
  double last = 1e300;
  for (const auto &c : d["callpaths"]) {
    const double change = std::abs(c["values"]["time"]["diff"].get<double>());
    EXPECT_LE(change, last) << "sorted by the largest change of time";
    last = change;
    if (c["path"] == nlohmann::json::array({"main", "leaf"})) {
      found = true;
      EXPECT_EQ(c["values"]["visits"]["a"], 200000);
      EXPECT_EQ(c["values"]["visits"]["b"], 600000);
      EXPECT_EQ(c["values"]["visits"]["diff"], 400000);
      EXPECT_TRUE(c["in_a"].get<bool>() && c["in_b"].get<bool>());
    }
  }
  EXPECT_TRUE(found) << j.out;

  // A run without leaf calls: the path is only in B.
  const std::string none = run_views("diff-none", 0);
  const RunResult o = run(shell_quote(report_bin()) + " --diff " + shell_quote(none) + " " + shell_quote(a));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("main \u2192 leaf  (only in B)"), std::string::npos) << o.out;
  EXPECT_EQ(run(shell_quote(report_bin()) + " --diff " + shell_quote(a) + " /nonexistent").status, 2);
}

// --functions=auto (function_size.h): which functions are not worth an
// enter/exit pair (straight-line leaves whatever their size, small callers of
// unknown code), decided on the AST of real snippets; what --verbose says
// about each; --functions=none; a filter include wins.
#include "test_support.h"

#include "filter/filter.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace hcc::test {
namespace {

struct Outcome {
  std::set<std::string> guarded;   // descriptor names
  std::set<std::string> left_out;  // short names auto/none left alone
  rewriter::Result result;
};

Outcome instrument(const std::string &code, rewriter::FunctionPolicy policy = rewriter::FunctionPolicy::Auto,
                   std::vector<std::string> args = {}, const filter::Filter *filter = nullptr,
                   unsigned min_size = rewriter::kAutoMinSize) {
  rewriter::Options options;
  options.main_file_name = "t.cpp";
  options.functions = policy;
  options.min_size = min_size;
  options.filter = filter;
  args.insert(args.begin(), "-I/hcc-test");
  Outcome o;
  o.result = rewriter::instrumentCode(code, "/hcc-test/t.cpp", args, options);
  EXPECT_TRUE(o.result.ok);
  static const std::regex desc(R"re(static hcc_region_desc __hcc_rd[0-9]+ = \{"([^"]*)")re");
  for (std::sregex_iterator it(o.result.output.begin(), o.result.output.end(), desc), end; it != end; ++it)
    o.guarded.insert((*it)[1]);
  static const std::regex msg(R"re(leaving '([^']*)' alone: --hcc-functions=(auto|none))re");
  for (const std::string &m : o.result.messages) {
    std::smatch s;
    if (std::regex_search(m, s, msg)) o.left_out.insert(s[1]);
  }
  EXPECT_EQ(o.result.left_out, o.left_out.size());
  return o;
}

const char *kField = R"cc(#include <vector>
class Field {
 public:
  explicit Field(int n) : v_(n, 1.0), n_(n) {}
  double at(int i) const { return v_[i]; }
  void set(int i, double x) { v_[i] = x; }
  int size() const { return n_; }
 private:
  std::vector<double> v_;
  int n_;
};
static double twice(double x) { return 2 * x; }
double total(const Field &f) {
  double s = 0;
  for (int i = 0; i < f.size(); ++i) s += twice(f.at(i));
  return s;
}
double half_total(const Field &f) { return total(f) / 2; }
double twice_twice(double x) { return twice(twice(x)); }
int main() {
  Field f(10);
  f.set(1, 2.0);
  return int(half_total(f));
}
)cc";

TEST(FunctionsAuto, LeavesOutAccessorsAndOneLinersKeepsLoopsTheirCallersAndMain) {
  Outcome o = instrument(kField);
  EXPECT_EQ(o.guarded, (std::set<std::string>{"total(const Field &)", "half_total(const Field &)", "main"}));
  EXPECT_EQ(o.left_out, (std::set<std::string>{"Field::Field", "Field::at", "Field::set", "Field::size", "twice",
                                               "twice_twice"}));
  EXPECT_EQ(o.result.guards, 3u);
}

// A call that ends the program or is cold runs at most once per run, so it
// does not make a function worth measuring: a comparator with an assert()
// (glibc's __assert_fail is noreturn), an index helper that calls a
// project's [[noreturn]] fail(), one that calls a cold logger. A compiled
// library call that returns (qsort) is a call of unknown cost: the size
// decides, and a small wrapper of qsort is left out as too small.
TEST(FunctionsAuto, CallsThatEndTheProgramOrAreColdAreNoCalls) {
  Outcome o = instrument(R"cc(#include <assert.h>
#include <stdlib.h>
[[noreturn]] void fail(const char *why);
__attribute__((cold)) void log_rare(int code);
static int compare(const void *a, const void *b) {
  assert(a && b);
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}
int checked(const int *v, int n, int i) {
  if (i < 0 || i >= n) fail("index");
  return v[i];
}
int rare(int x) {
  if (x < 0) log_rare(x);
  return x + 1;
}
int sorts(int *v, int n) {
  qsort(v, n, sizeof *v, compare);
  return v[0];
}
int main() {
  int v[3] = {3, 1, 2};
  return sorts(v, 3) + checked(v, 3, 1) + rare(1);
}
)cc");
  EXPECT_EQ(o.guarded, (std::set<std::string>{"main"}));
  EXPECT_EQ(o.left_out, (std::set<std::string>{"compare", "checked", "rare", "sorts"}));
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:5: leaving 'compare' alone: --hcc-functions=auto: straight-line leaf: "
                                   "no loop, no call worth measuring (size 12)"));
  // qsort, `*v` in sizeof, `v[0]`: 3 operations.
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:18: leaving 'sorts' alone: --hcc-functions=auto: too small: size 5 < 40 "
                                   "(2 statements, 3 operations), no loop; calls 'qsort', compiled in a library"));
}

TEST(FunctionsAuto, VerboseSaysWhereAndWhyPerFunction) {
  Outcome o = instrument(kField);
  // `return v_[i];`: one statement; operator[] of std::vector (a system
  // header) is one operation.
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:5: leaving 'Field::at' alone: --hcc-functions=auto: "
                                   "straight-line leaf: no loop, no call worth measuring (size 2)"));
  // `v_[i] = x;`: a statement, subscript and assignment.
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:6: leaving 'Field::set' alone: --hcc-functions=auto: "
                                   "straight-line leaf: no loop, no call worth measuring (size 3)"));
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:12: leaving 'twice' alone: --hcc-functions=auto: "
                                   "straight-line leaf: no loop, no call worth measuring (size 2)"));
  // Calls of straight-line leaves are no calls worth measuring.
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:19: leaving 'twice_twice' alone: --hcc-functions=auto: "
                                   "straight-line leaf: no loop, no call worth measuring (size 3)"));
  // Member initialisers count: the vector's constructor call.
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:4: leaving 'Field::Field' alone: --hcc-functions=auto: "
                                   "straight-line leaf: no loop, no call worth measuring (size 1)"));
}

TEST(FunctionsAuto, AllKeepsEveryFunction) {
  Outcome o = instrument(kField, rewriter::FunctionPolicy::All);
  EXPECT_EQ(o.guarded.size(), 9u);
  EXPECT_TRUE(o.left_out.empty());
}

TEST(FunctionsAuto, NoneKeepsNoFunctionButOpenMPAndUserRegions) {
  const char *in = R"cc(void work(double *a, int n) {
  #pragma omp parallel for
  for (int i = 0; i < n; ++i) a[i] = i;
}
int main() {
  double a[8];
  #pragma hcc region begin(setup)
  work(a, 8);
  #pragma hcc region end(setup)
  return 0;
}
)cc";
  Outcome o = instrument(in, rewriter::FunctionPolicy::None, {"-fopenmp"});
  EXPECT_TRUE(o.guarded.empty()) << o.result.output;
  EXPECT_EQ(o.left_out, (std::set<std::string>{"work", "main"}));
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:1: leaving 'work' alone: --hcc-functions=none"));
  EXPECT_EQ(o.result.openmp_directives, 1u);
  EXPECT_EQ(o.result.user_regions, 2u);
  EXPECT_NE(o.result.output.find("POMP2_Parallel_fork"), std::string::npos);
  EXPECT_NE(o.result.output.find("hcc_region_begin(\"setup\")"), std::string::npos);
}

TEST(FunctionsAuto, KeepsWhatIsWorthMeasuringWhateverItsSize) {
  const char *in = R"cc(extern "C" int MPI_Barrier(int comm);
extern "C" void hcc_region_begin(const char *);
extern "C" void hcc_region_end(const char *);
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int ping(int n);
int pong(int n) { return n ? ping(n - 1) : 0; }
int ping(int n) { return n ? pong(n - 1) : 1; }
void sync() { MPI_Barrier(0); }
void omp_one(double *a) {
  #pragma omp parallel
  a[0] = 1;
}
void marked() {
  #pragma hcc region begin(x)
  #pragma hcc region end(x)
}
void api() { hcc_region_begin("y"); hcc_region_end("y"); }
int guarded_call(int x) try { return x; } catch (...) { return 0; }
int spin(int n) { again: if (n-- > 0) goto again; return n; }
void each(int *a, int n) { for (int i = 0; i < n; ++i) a[i] = 0; }
void wraps(int *a) { each(a, 2); }
)cc";
  Outcome o = instrument(in, rewriter::FunctionPolicy::Auto, {"-fopenmp"});
  EXPECT_TRUE(o.left_out.empty()) << *o.left_out.begin();
  for (const char *name : {"fact(int)", "pong(int)", "ping(int)", "sync()", "omp_one(double *)", "marked()",
                           "api()", "guarded_call(int)", "spin(int)",
                           "each(int *, int)", "wraps(int *)"})
    EXPECT_TRUE(o.guarded.count(name)) << name << "\n" << o.result.output;
}

// `n` lines of `s = s * x + y * x - 1;` (5 operations each) between a
// declaration and a return: n + 2 statements, 5n operations.
std::string straightLine(const std::string &name, int n, const std::string &extra = "") {
  std::string body;
  for (int i = 0; i < n; ++i) body += "  s = s * x + y * x - 1;\n";
  return "double " + name + "(double x, double y) {\n  double s = 0;\n" + body + extra + "  return s;\n}\n";
}

// No loop, no call worth measuring: each operation runs at most once per
// call, so the time per call is of the order of the pair's; left out
// whatever the operation count and whatever --min-size says.
TEST(FunctionsAuto, AStraightLineLeafIsLeftOutWhateverItsSize) {
  const std::string in = straightLine("poly", 20);  // 22 statements, 100 operations
  Outcome o = instrument(in);
  EXPECT_TRUE(o.guarded.empty()) << o.result.output;
  EXPECT_EQ(o.left_out, (std::set<std::string>{"poly"}));
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:1: leaving 'poly' alone: --hcc-functions=auto: straight-line leaf: "
                                   "no loop, no call worth measuring (size 122)"));
  EXPECT_TRUE(instrument(in, rewriter::FunctionPolicy::Auto, {}, nullptr, 1).guarded.empty());
  // The size counts what it did: if/else branches and a conditional.
  Outcome branchy = instrument("int sign(int v) {\n  if (v < 0) return -1;\n  else if (v == 0) return 0;\n"
                               "  return v > 0 ? 1 : 2;\n}\n");
  // 2 block statements + 3 unbraced branches; < - == > ?: : 5 operations.
  EXPECT_TRUE(hasMessage(branchy.result, "leaving 'sign' alone: --hcc-functions=auto: straight-line leaf: "
                                         "no loop, no call worth measuring (size 10)"));
}

TEST(FunctionsAuto, TheSameLeafWithALoopIsKept) {
  Outcome o = instrument(straightLine("poly", 20, "  for (int i = 0; i < int(x); ++i) s += i;\n"));
  EXPECT_EQ(o.guarded, (std::set<std::string>{"poly(double, double)"}));
  EXPECT_TRUE(o.left_out.empty());
}

// A loop counted by constants (NPB-style 5x5 blocks) runs a known number of
// times: the function's work per call is bounded as a straight-line one's
// is, by its statements and operations times the iterations around them
// (its bounded callees' work added). Left out up to kMaxBoundedWork (5000).
TEST(FunctionsAuto, ALeafWhoseLoopsAreCountedIsLeftOutWhileItsWorkIsSmall) {
  Outcome o = instrument(std::string("void extern_sort(void *);\n") + R"cc(#define NC 5
void matmul_sub(const double a[NC][NC], const double b[NC][NC], double c[NC][NC]) {
  for (int i = 0; i < NC; ++i)
    for (int j = 0; j < NC; ++j)
      c[i][j] -= a[i][0] * b[0][j] + a[i][1] * b[1][j];
}
void upper(double a[NC][NC]) {
  for (int p = 0; p < NC; ++p)
    for (int j = p + 1; j < NC; ++j) a[p][j] = 0;
}
void down(double *a) { for (int k = 7; k >= 0; k -= 2) a[k] = 1; }
void both(double a[NC][NC], double c[NC][NC]) { matmul_sub(a, a, c); upper(c); }
void big(double a[100][100]) {
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 100; ++j) a[i][j] = a[j][i] * 2;
}
void inside(double a[100][100]) { for (int r = 0; r < 3; ++r) big(a); }
void skips(double *a) { for (int i = 0; i < 8; ++i) { a[i] = 0; i += a[i] > 1; } }
void pointer(double *a) { for (int i = 0; i < 8; ++i) { int *q = &i; a[*q] = 0; } }
void unbounded(double *a, int n) { for (int i = 0; i < 4; ++i) for (int j = i; j < n; ++j) a[j] = i; }
void endless(double *a) { for (int i = 0; i != 7; i += 2) a[i & 7] = 0; }
void qsorts(void *a) { for (int i = 0; i < 2; ++i) extern_sort(a); }
void mixed(void *a, double *d) { down(d); extern_sort(a); }
)cc");
  EXPECT_EQ(o.left_out, (std::set<std::string>{"matmul_sub", "upper", "down", "both", "mixed"})) << o.result.output;
  EXPECT_EQ(o.guarded, (std::set<std::string>{"big(double (*)[100])", "inside(double (*)[100])", "skips(double *)",
                                              "pointer(double *)", "unbounded(double *, int)", "endless(double *)",
                                              "qsorts(void *)"}))
      << o.result.output;
  // The body's 14 operations (-=, 2 *, +, 10 subscripts) 25 times, each loop's
  // test and increment once per iteration of what is around them (5 x 2 +
  // 25 x 2), and the one statement of the function's block: 411.
  EXPECT_TRUE(hasMessage(o.result, "leaving 'matmul_sub' alone: --hcc-functions=auto: bounded leaf: counted loops "
                                   "only (25 iterations), no call worth measuring (work 411 <= 5000 per call)"));
  // The inner loop of the triangle starts at p + 1 >= 1: at most 4 values of j for each p.
  EXPECT_TRUE(hasMessage(o.result, "leaving 'upper' alone: --hcc-functions=auto: bounded leaf: counted loops only "
                                   "(20 iterations)"));
  // 7, 5, 3, 1: 4 iterations.
  EXPECT_TRUE(hasMessage(o.result, "leaving 'down' alone: --hcc-functions=auto: bounded leaf: counted loops only "
                                   "(4 iterations)"));
  // No loop of its own and a call of unknown cost: the size decides, as for any loop-free function.
  EXPECT_TRUE(hasMessage(o.result, "leaving 'mixed' alone: --hcc-functions=auto: too small: size "));
  // Its callees' loops are its own.
  EXPECT_TRUE(hasMessage(o.result, "leaving 'both' alone: --hcc-functions=auto: bounded leaf: counted loops only "
                                   "(25 iterations)"));
}

// A function with no loop whose calls all go to straight-line leaves is
// itself bounded: left out. The element loop that calls it stays (its loop),
// and so does its caller (it calls a kept function).
TEST(FunctionsAuto, ANoLoopFunctionCallingOnlyStraightLineLeavesIsLeftOut) {
  const std::string in = straightLine("normal", 20) + straightLine("tangent", 20) +
                         "double shade(double x, double y) {\n"
                         "  double n = normal(x, y), t = tangent(y, x);\n"
                         "  return n * t + normal(t, n);\n}\n"
                         "double element_loop(const double *x, int m) {\n"
                         "  double s = 0;\n  for (int e = 0; e < m; ++e) s += shade(x[e], s);\n  return s;\n}\n"
                         "double step(const double *x, int m) { return element_loop(x, m) * 0.5; }\n";
  Outcome o = instrument(in);
  EXPECT_EQ(o.guarded, (std::set<std::string>{"element_loop(const double *, int)", "step(const double *, int)"}));
  EXPECT_EQ(o.left_out, (std::set<std::string>{"normal", "tangent", "shade"}));
  // 2 statements; 3 calls, * +: 5 operations.
  EXPECT_TRUE(hasMessage(o.result, "leaving 'shade' alone: --hcc-functions=auto: straight-line leaf: "
                                   "no loop, no call worth measuring (size 7)"));
  EXPECT_TRUE(hasMessage(o.result, "leaving 'step' alone") == false);
}

// A call of unknown cost (a function of another file, a compiled library
// function, a function pointer, or a left-out function that makes one)
// leaves the decision to the size: a small wrapper stays out, from the
// minimum size on the function is kept.
TEST(FunctionsAuto, ALeafCallingUnknownCodeFollowsTheSizeThreshold) {
  const std::string in = "#include <stdlib.h>\n"
                         "double elsewhere(double);\n"
                         "double calls_out(double x) { return elsewhere(x) + 1; }\n"
                         "void through(void (*f)()) { f(); }\n"
                         "void sorts(int *v, int n, int (*cmp)(const void *, const void *)) { qsort(v, n, 4, cmp); }\n"
                         "double wraps_wrapper(double x) { return calls_out(x) * 2; }\n" +
                         straightLine("big_out", 20, "  s += elsewhere(s);\n");
  Outcome o = instrument(in);
  EXPECT_EQ(o.guarded, (std::set<std::string>{"big_out(double, double)"})) << o.result.output;
  EXPECT_EQ(o.left_out, (std::set<std::string>{"calls_out", "through", "sorts", "wraps_wrapper"}));
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:3: leaving 'calls_out' alone: --hcc-functions=auto: too small: "
                                   "size 3 < 40 (1 statement, 2 operations), no loop; "
                                   "calls 'elsewhere', whose body is not in this file"));
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:4: leaving 'through' alone: --hcc-functions=auto: too small: "
                                   "size 2 < 40 (1 statement, 1 operation), no loop; calls through a function pointer"));
  // Not bounded: it inherits what calls_out calls.
  EXPECT_TRUE(hasMessage(o.result, "hcc: t.cpp:6: leaving 'wraps_wrapper' alone: --hcc-functions=auto: too small: "
                                   "size 3 < 40 (1 statement, 2 operations), no loop; "
                                   "calls 'calls_out', which calls 'elsewhere', whose body is not in this file"));
  // --min-size moves the threshold for these, and only these.
  Outcome low = instrument(in + straightLine("leaf", 1), rewriter::FunctionPolicy::Auto, {}, nullptr, 3);
  EXPECT_EQ(low.guarded, (std::set<std::string>{"calls_out(double)", "wraps_wrapper(double)", "big_out(double, double)"}));
  EXPECT_EQ(low.left_out, (std::set<std::string>{"through", "sorts", "leaf"}));
}

TEST(FunctionsAuto, MainWithNoLoopIsKept) {
  Outcome o = instrument("static int one() { return 1; }\nint main() { return one() - 1; }\n");
  EXPECT_EQ(o.guarded, (std::set<std::string>{"main"}));
  EXPECT_EQ(o.left_out, (std::set<std::string>{"one"}));
}

TEST(FunctionsAuto, LambdasAndTemplatesFollowTheSameRule) {
  const char *in = R"cc(template <class T> struct Box {
  T v;
  T get() const { return v; }
  T sum(int n) const { T s = T(); for (int i = 0; i < n; ++i) s += v; return s; }
};
int use(int n) {
  Box<int> b{n};
  auto small = [](int x) { return x + 1; };
  auto big = [](int m) { int t = 0; while (m--) t += m; return t; };
  return small(b.get()) + big(n) + b.sum(n);
}
)cc";
  Outcome o = instrument(in);
  EXPECT_TRUE(o.left_out.count("Box::get")) << o.result.output;
  EXPECT_TRUE(o.left_out.count("lambda at t.cpp:8"));
  EXPECT_TRUE(o.guarded.count("lambda at t.cpp:9"));
  EXPECT_TRUE(o.guarded.count("__PRETTY_FUNCTION__") == 0);  // names are unquoted inside templates
  EXPECT_NE(o.result.output.find("T sum(int n) const {static hcc_region_desc"), std::string::npos);
  // use() calls the kept lambda and Box::sum.
  EXPECT_TRUE(o.guarded.count("use(int)"));
}

TEST(FunctionsAuto, AFilterIncludeWinsOverTheSizeRule) {
  filter::Filter f;
  std::string error;
  ASSERT_TRUE(f.add_text("include twice\n", "keep.filt", error)) << error;
  Outcome o = instrument(kField, rewriter::FunctionPolicy::Auto, {}, &f);
  EXPECT_TRUE(o.guarded.count("twice(double)"));
  EXPECT_TRUE(o.left_out.count("Field::at"));
  // An exclusion still wins over everything.
  filter::Filter g;
  ASSERT_TRUE(g.add_text("exclude total\n", "drop.filt", error)) << error;
  Outcome p = instrument(kField, rewriter::FunctionPolicy::Auto, {}, &g);
  EXPECT_FALSE(p.guarded.count("total(const Field &)"));
  EXPECT_TRUE(p.guarded.count("main"));
  // TAU include lists and plain --include patterns name functions too; a
  // file rule does not.
  filter::Filter tau;
  ASSERT_TRUE(tau.add_text("BEGIN_INCLUDE_LIST\ndouble twice(double)\nmain\nint main#\nFi#\n"
                           "END_INCLUDE_LIST\n", "t.tau", error)) << error;
  Outcome t = instrument(kField, rewriter::FunctionPolicy::Auto, {}, &tau);
  EXPECT_TRUE(t.guarded.count("twice(double)"));
  EXPECT_TRUE(t.guarded.count("Field::at(int) const"));
  EXPECT_FALSE(t.guarded.count("total(const Field &)"));  // not in the include list
  filter::Filter files;
  ASSERT_TRUE(files.add_text("include file t.cpp\n", "f.filt", error)) << error;
  Outcome u = instrument(kField, rewriter::FunctionPolicy::Auto, {}, &files);
  EXPECT_TRUE(u.left_out.count("twice"));
}

}  // namespace
}  // namespace hcc::test

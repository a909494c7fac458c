// The rewriter's selective-instrumentation concerns, input and expected
// output side by side: filtered functions, TAU loop regions, region pragmas.
#include <gtest/gtest.h>

#include "filter/filter.hpp"
#include "instrument.h"

namespace {

std::string rewrite(const std::string &code, const std::string &filter_text, const std::string &file = "t.c") {
  hcc::filter::Filter f;
  std::string error;
  EXPECT_TRUE(f.add_text(filter_text, "t.filt", error)) << error;
  hcc::rewriter::Options o;
  o.filter = &f;
  hcc::rewriter::Result r = hcc::rewriter::instrumentCode(code, file, {}, o);
  EXPECT_TRUE(r.ok);
  return r.output.substr(r.output.find('\n') + 1);  // without the #line
}

TEST(SelectiveRewrite, ExcludedFunctionGetsNoGuard) {
  const char *in = R"cc(int tiny(int x) { return x + 1; }
int work(int n) { return tiny(n); }
)cc";
  const char *out = R"cc(int tiny(int x) { return x + 1; }
int work(int n) {static hcc_region_desc __hcc_rd0 = {"work", "work", "t.c", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return tiny(n); }
)cc";
  EXPECT_EQ(rewrite(in, "BEGIN_EXCLUDE_LIST\nint tiny(int)\nEND_EXCLUDE_LIST\n"), out);
}

// Count mode: a function a COUNT rule names gets the count guard (visits, no
// clock), or, when its body calls nothing, the one-call visit; the others
// keep the timed guard.
TEST(SelectiveRewrite, CountedFunctionGetsTheCountGuard) {
  const char *in = R"cc(int tiny(int x) { return x + 1; }
int work(int n) { return tiny(n); }
int twice(int n) { return work(n) + work(n); }
)cc";
  const char *out = R"cc(int tiny(int x) {static hcc_region_desc __hcc_rd0 = {"tiny", "tiny", "t.c", 1, 1, 0, 0}; HCC_COUNT_VISIT_(__hcc_g0, &__hcc_rd0); return x + 1; }
int work(int n) {static hcc_region_desc __hcc_rd1 = {"work", "work", "t.c", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return tiny(n); }
int twice(int n) {static hcc_region_desc __hcc_rd2 = {"twice", "twice", "t.c", 3, 3, 0, 0}; HCC_COUNT_GUARD_(__hcc_g2, &__hcc_rd2); return work(n) + work(n); }
)cc";
  EXPECT_EQ(rewrite(in, "SCOREP_REGION_NAMES_BEGIN\nCOUNT tiny twice\nSCOREP_REGION_NAMES_END\n"), out);
}

// The one-call visit only where no other code can run inside the function:
// each body below runs code (a call, an operator of a class, a destructor, a
// constructor, new, a call through a pointer, asm, an operator a template
// argument may overload) except the ones with builtins that run no user code.
TEST(SelectiveRewrite, CountVisitOnlyForBodiesThatCallNothing) {
  struct Case {
    const char *name, *body;
    bool visit;
  };
  const Case cases[] = {
      {"arith", "int f(int x) { int y = x * 3; if (y > 4) y -= 2; return y; }", true},
      {"builtin", "int f(int x) { return __builtin_expect(x, 0) + (int)__builtin_fabs(1.0); }", true},
      {"trivial_struct", "struct P { int a, b; }; int f(int x) { P p{x, 2}; P q = p; return q.a + q.b; }", true},
      {"call", "int g(int); int f(int x) { return g(x); }", false},
      {"pointer", "int f(int (*g)(int), int x) { return g(x); }", false},
      {"operator", "struct V { int a; V operator+(V o) const { return V{a + o.a}; } }; "
                   "int f(V x) { return (x + x).a; }", false},
      {"destructor", "struct D { ~D(); }; int f(int x) { D d; return x; }", false},
      {"constructor", "struct C { C(int); int v; }; int f(int x) { C c(x); return c.v; }", false},
      {"new", "int f(int x) { int *p = new int(x); return *p; }", false},
      {"asm", "int f(int x) { __asm__ volatile(\"\" ::: \"memory\"); return x; }", false},
      {"template", "template <class T> T f(T x) { return x + x; } int use(int v) { return f(v); }", false},
  };
  for (const Case &c : cases) {
    const std::string out = rewrite(c.body, "SCOREP_REGION_NAMES_BEGIN\nCOUNT f\nSCOREP_REGION_NAMES_END\n", "t.cpp");
    const bool visit = out.find("HCC_COUNT_VISIT_") != std::string::npos;
    const bool guard = out.find("HCC_COUNT_GUARD_") != std::string::npos;
    EXPECT_EQ(visit, c.visit) << c.name << ":\n" << out;
    EXPECT_EQ(guard, !c.visit) << c.name << ":\n" << out;
  }
}

// TAU's signature forms at compile time, where the instrumentor knows each
// routine's return type and parameters: "int ear#" leaves the void
// early_report alone; " C" and "(void)" are TAU's spelling of C routines.
TEST(SelectiveRewrite, TauSignaturesWithReturnTypesAndCSuffix) {
  const char *in = R"cc(int early(int x) { return x * 2; }
void early_report(int v) { (void)v; }
double multiply(void) { return 2.0; }
void quicksort(int *a, int lo, int hi) { (void)a; (void)lo; (void)hi; }
int main(int argc, char **argv) { (void)argv; return early(argc); }
)cc";
  const char *out = R"cc(int early(int x) { return x * 2; }
void early_report(int v) {static hcc_region_desc __hcc_rd0 = {"early_report", "early_report", "t.c", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); (void)v; }
double multiply(void) { return 2.0; }
void quicksort(int *a, int lo, int hi) { (void)a; (void)lo; (void)hi; }
int main(int argc, char **argv) { (void)argv; return early(argc); }
)cc";
  EXPECT_EQ(rewrite(in,
                    "BEGIN_EXCLUDE_LIST\n"
                    "int ear#\n"
                    "double multiply(void) C\n"
                    "void quicksort(int *, int, int) C\n"
                    "int main(int, char **) C\n"
                    "END_EXCLUDE_LIST\n"),
            out);
}

TEST(SelectiveRewrite, TauReturnTypeWildcardInCxx) {
  const char *in = R"cc(namespace geo {
struct V {
  double x;
  void scale(double f) { x *= f; }
  double norm() const { return x; }
};
}
int main() { geo::V v{2}; v.scale(2); return v.norm() > 0 ? 0 : 1; }
)cc";
  const char *out = R"cc(namespace geo {
struct V {
  double x;
  void scale(double f) { x *= f; }
  double norm() const {static hcc_region_desc __hcc_rd0 = {"geo::V::norm() const", "_ZNK3geo1V4normEv", "t.cpp", 5, 5, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return x; }
};
}
int main() {static hcc_region_desc __hcc_rd1 = {"main", "main", "t.cpp", 8, 8, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); geo::V v{2}; v.scale(2); return v.norm() > 0 ? 0 : 1; }
)cc";
  EXPECT_EQ(rewrite(in, "BEGIN_EXCLUDE_LIST\nvoid#\nEND_EXCLUDE_LIST\n", "t.cpp"), out);
}

TEST(SelectiveRewrite, OutermostLoopsOfSelectedRoutinesBecomeRegions) {
  const char *in = R"cc(int mm(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) s += i * j;
  while (s > 100) s /= 2;
  do { s++; } while (s < 10);
  return s;
}
)cc";
  const char *out = R"cc(int mm(int n) {static hcc_region_desc __hcc_rd0 = {"mm", "mm", "t.c", 1, 8, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  int s = 0;
  { static hcc_region_desc __hcc_lrd0 = {"loop at t.c:3", "", "t.c", 3, 4, 2, 0}; HCC_FUNCTION_GUARD_(__hcc_lg0, &__hcc_lrd0); for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) s += i * j; }
  { static hcc_region_desc __hcc_lrd1 = {"loop at t.c:5", "", "t.c", 5, 5, 2, 0}; HCC_FUNCTION_GUARD_(__hcc_lg1, &__hcc_lrd1); while (s > 100) s /= 2; }
  { static hcc_region_desc __hcc_lrd2 = {"loop at t.c:6", "", "t.c", 6, 6, 2, 0}; HCC_FUNCTION_GUARD_(__hcc_lg2, &__hcc_lrd2); do { s++; } while (s < 10); }
  return s;
}
)cc";
  EXPECT_EQ(rewrite(in, "BEGIN_INSTRUMENT_SECTION\nloops routine=\"mm\"\nEND_INSTRUMENT_SECTION\n"), out);
}

TEST(SelectiveRewrite, RegionPragmasBecomeCallsOnTheSameLine) {
  const char *in = R"cc(void f(void) {
  #pragma hcc region begin(io)
#pragma pomp inst begin(x)
#pragma pomp inst end(x)
  # pragma hcc region end( io )
#pragma omp barrier
}
)cc";
  const char *out = R"cc(void f(void) {static hcc_region_desc __hcc_rd0 = {"f", "f", "t.c", 1, 7, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  hcc_region_begin("io"); //#pragma hcc region begin(io)
hcc_region_begin("x"); //#pragma pomp inst begin(x)
hcc_region_end("x"); //#pragma pomp inst end(x)
  hcc_region_end("io"); //# pragma hcc region end( io )
#pragma omp barrier
}
)cc";
  EXPECT_EQ(rewrite(in, ""), out);
}

}  // namespace

// function_guards: what gets a guard, with which name, mangled name and lines.
// Each test shows the input and the exact expected output side by side.
#include "test_support.h"

#include <gtest/gtest.h>

namespace hcc::test {
namespace {

TEST(FunctionGuards, CFunctionGetsPlainNameAsNameAndSymbol) {
  const char *in = R"cc(int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
)cc";
  const char *out = R"cc(int fib(int n) {static hcc_region_desc __hcc_rd0 = {"fib", "fib", "t.c", 1, 3, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
)cc";
  EXPECT_EQ(rewritten(in, "t.c"), out);
}

TEST(FunctionGuards, FirstLineIsLineDirectiveWithTheMainFileName) {
  rewriter::Result r = rewrite("int f(void) { return 0; }\n", "dir/my \"file\".c");
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.output.substr(0, r.output.find('\n') + 1),
            "#line 1 \"dir/my \\\"file\\\".c\"\n");
  // The descriptor names the file the same way.
  EXPECT_NE(r.output.find(R"cc("f", "f", "dir/my \"file\".c", 1, 1, 0, 0})cc"), std::string::npos);
}

TEST(FunctionGuards, ByteOrderMarkStaysFirst) {
  rewriter::Result r = rewrite("\xEF\xBB\xBFint f(void) { return 0; }\n", "t.c");
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.output.substr(0, 17), "\xEF\xBB\xBF#line 1 \"t.c\"\n");
  EXPECT_EQ(r.output.substr(17, 13), "int f(void) {");
}

TEST(FunctionGuards, OutputHasTheSameLinesAsTheInput) {
  const char *in = "int a(void) { return 1; }\n\n  int b(void)\n{\n\n return 2;\n}\n// end";
  rewriter::Result r = rewrite(in, "t.c");
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(countLines(r.output), countLines(in) + 1);  // + the #line directive
  EXPECT_EQ(r.guards, 2u);
  // Untouched text stays byte for byte.
  EXPECT_NE(r.output.find("\n\n  int b(void)\n{static"), std::string::npos);
  EXPECT_NE(r.output.find("\n\n return 2;\n}\n// end"), std::string::npos);
}

TEST(FunctionGuards, CKnRDefinitionAndStaticInline) {
  const char *in = R"cc(int twice(n)
  int n;
{
  return 2 * n;
}
static inline int sq(int x) { return x * x; }
)cc";
  const char *out = R"cc(int twice(n)
  int n;
{static hcc_region_desc __hcc_rd0 = {"twice", "twice", "t.c", 1, 5, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  return 2 * n;
}
static inline int sq(int x) {static hcc_region_desc __hcc_rd1 = {"sq", "sq", "t.c", 6, 6, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return x * x; }
)cc";
  EXPECT_EQ(rewritten(in, "t.c"), out);
}

TEST(FunctionGuards, VariadicFunctions) {
  const char *c_in = R"cc(#include <stdarg.h>
int sum(int n, ...) { va_list ap; va_start(ap, n); va_end(ap); return n; }
)cc";
  const char *c_out = R"cc(#include <stdarg.h>
int sum(int n, ...) {static hcc_region_desc __hcc_rd0 = {"sum", "sum", "t.c", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); va_list ap; va_start(ap, n); va_end(ap); return n; }
)cc";
  EXPECT_EQ(rewritten(c_in, "t.c"), c_out);

  const char *cxx_in = R"cc(void logf(const char *fmt, ...) { (void)fmt; }
void any(...) {}
)cc";
  const char *cxx_out = R"cc(void logf(const char *fmt, ...) {static hcc_region_desc __hcc_rd0 = {"logf(const char *, ...)", "_Z4logfPKcz", "t.cpp", 1, 1, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); (void)fmt; }
void any(...) {static hcc_region_desc __hcc_rd1 = {"any(...)", "_Z3anyz", "t.cpp", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1);}
)cc";
  EXPECT_EQ(rewritten(cxx_in, "t.cpp"), cxx_out);
}

TEST(FunctionGuards, CxxFreeFunctionHasQualifiedNameWithParameterTypes) {
  const char *in = R"cc(namespace geo {
namespace detail {
double area(double w, const int h[], struct Pt *p) { return w * h[0] + (p ? 1 : 0); }
}
}
)cc";
  // Arrays decay and `struct` is not printed, as a demangler shows them.
  const char *out = R"cc(namespace geo {
namespace detail {
double area(double w, const int h[], struct Pt *p) {static hcc_region_desc __hcc_rd0 = {"geo::detail::area(double, const int *, Pt *)", "_ZN3geo6detail4areaEdPKiPNS0_2PtE", "t.cpp", 3, 3, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return w * h[0] + (p ? 1 : 0); }
}
}
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(FunctionGuards, MembersConstructorsDestructorsOperatorsConversions) {
  const char *in = R"cc(struct S {
  S(int v) : v_(v) {}
  ~S();
  int get() const { return v_; }
  S &operator+=(const S &o);
  explicit operator bool() const { return v_ != 0; }
  int v_;
};
S::~S() { v_ = 0; }
S &S::operator+=(const S &o) { v_ += o.v_; return *this; }
S operator+(S a, const S &b) { return a += b; }
)cc";
  const char *out = R"cc(struct S {
  S(int v) : v_(v) {static hcc_region_desc __hcc_rd0 = {"S::S(int)", "_ZN1SC1Ei", "t.cpp", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);}
  ~S();
  int get() const {static hcc_region_desc __hcc_rd1 = {"S::get() const", "_ZNK1S3getEv", "t.cpp", 4, 4, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return v_; }
  S &operator+=(const S &o);
  explicit operator bool() const {static hcc_region_desc __hcc_rd2 = {"S::operator bool() const", "_ZNK1ScvbEv", "t.cpp", 6, 6, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g2, &__hcc_rd2); return v_ != 0; }
  int v_;
};
S::~S() {static hcc_region_desc __hcc_rd3 = {"S::~S()", "_ZN1SD1Ev", "t.cpp", 9, 9, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g3, &__hcc_rd3); v_ = 0; }
S &S::operator+=(const S &o) {static hcc_region_desc __hcc_rd4 = {"S::operator+=(const S &)", "_ZN1SpLERKS_", "t.cpp", 10, 10, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g4, &__hcc_rd4); v_ += o.v_; return *this; }
S operator+(S a, const S &b) {static hcc_region_desc __hcc_rd5 = {"operator+(S, const S &)", "_Zpl1SRKS_", "t.cpp", 11, 11, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g5, &__hcc_rd5); return a += b; }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(FunctionGuards, RefQualifiedAndVolatileMembers) {
  const char *in = R"cc(struct R {
  int f() volatile & { return 1; }
  int g() const && { return 2; }
};
)cc";
  const char *out = R"cc(struct R {
  int f() volatile & {static hcc_region_desc __hcc_rd0 = {"R::f() volatile &", "_ZNVR1R1fEv", "t.cpp", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return 1; }
  int g() const && {static hcc_region_desc __hcc_rd1 = {"R::g() const &&", "_ZNKO1R1gEv", "t.cpp", 3, 3, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return 2; }
};
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(FunctionGuards, FunctionTemplateGetsOneGuardNamedByTheCompiler) {
  // Three instantiations, one guard: the pattern's text is rewritten once and
  // __PRETTY_FUNCTION__ names each instantiation. The template header counts
  // as the start of the region.
  const char *in = R"cc(template <class T>
T maxOf(T a, T b) {
  return a < b ? b : a;
}
int use() { return maxOf(1, 2) + (int)maxOf(1.0, 2.0) + (int)maxOf('a', 'b'); }
)cc";
  const char *out = R"cc(template <class T>
T maxOf(T a, T b) {static hcc_region_desc __hcc_rd0 = {__PRETTY_FUNCTION__, "", "t.cpp", 1, 4, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  return a < b ? b : a;
}
int use() {static hcc_region_desc __hcc_rd1 = {"use()", "_Z3usev", "t.cpp", 5, 5, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return maxOf(1, 2) + (int)maxOf(1.0, 2.0) + (int)maxOf('a', 'b'); }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(FunctionGuards, AbbreviatedFunctionTemplate) {
  // `auto` parameters make a template with no `template` keyword to start at.
  const char *in = R"cc(auto sum_all(const auto &range) {
  return range;
}
int use() { return sum_all(1); }
)cc";
  const char *out = R"cc(auto sum_all(const auto &range) {static hcc_region_desc __hcc_rd0 = {__PRETTY_FUNCTION__, "", "t.cpp", 1, 3, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  return range;
}
int use() {static hcc_region_desc __hcc_rd1 = {"use()", "_Z3usev", "t.cpp", 4, 4, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return sum_all(1); }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp", {"-std=c++20"}), out);
}

TEST(FunctionGuards, ExplicitSpecializationIsAnOrdinaryFunction) {
  const char *in = R"cc(template <class T> T first(T a, T) { return a; }
template <>
const char *first<const char *>(const char *a, const char *) { return a; }
)cc";
  const char *out = R"cc(template <class T> T first(T a, T) {static hcc_region_desc __hcc_rd0 = {__PRETTY_FUNCTION__, "", "t.cpp", 1, 1, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return a; }
template <>
const char *first<const char *>(const char *a, const char *) {static hcc_region_desc __hcc_rd1 = {"first<const char *>(const char *, const char *)", "_Z5firstIPKcET_S2_S2_", "t.cpp", 2, 3, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return a; }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(FunctionGuards, ClassTemplateMembersUsePrettyFunction) {
  const char *in = R"cc(template <class T> struct Box {
  T get() const { return v; }
  void set(T x);
  template <class U> U as() const { return U(v); }
  T v;
};
template <class T>
void Box<T>::set(T x) { v = x; }
long useBox() { Box<int> b; b.set(3); return b.get() + b.as<long>(); }
)cc";
  const char *out = R"cc(template <class T> struct Box {
  T get() const {static hcc_region_desc __hcc_rd0 = {__PRETTY_FUNCTION__, "", "t.cpp", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return v; }
  void set(T x);
  template <class U> U as() const {static hcc_region_desc __hcc_rd1 = {__PRETTY_FUNCTION__, "", "t.cpp", 4, 4, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return U(v); }
  T v;
};
template <class T>
void Box<T>::set(T x) {static hcc_region_desc __hcc_rd2 = {__PRETTY_FUNCTION__, "", "t.cpp", 7, 8, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g2, &__hcc_rd2); v = x; }
long useBox() {static hcc_region_desc __hcc_rd3 = {"useBox()", "_Z6useBoxv", "t.cpp", 9, 9, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g3, &__hcc_rd3); Box<int> b; b.set(3); return b.get() + b.as<long>(); }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(FunctionGuards, LambdasAndNestedLambdasGetDistinctCounters) {
  const char *in = R"cc(int apply(int x) {
  auto add = [x](int y) {
    auto twice = [](int z) { return 2 * z; };
    return twice(x + y);
  };
  auto any = [](auto v) { return v; };
  return add(1) + any(2) + any('c');
}
)cc";
  // Counters follow the text, so a lambda's guard never shadows its
  // parent's (-Wshadow). The generic lambda has one guard for all its
  // instantiations.
  const char *out = R"cc(int apply(int x) {static hcc_region_desc __hcc_rd0 = {"apply(int)", "_Z5applyi", "t.cpp", 1, 8, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  auto add = [x](int y) {static hcc_region_desc __hcc_rd1 = {"lambda at t.cpp:2", "", "t.cpp", 2, 5, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1);
    auto twice = [](int z) {static hcc_region_desc __hcc_rd2 = {"lambda at t.cpp:3", "", "t.cpp", 3, 3, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g2, &__hcc_rd2); return 2 * z; };
    return twice(x + y);
  };
  auto any = [](auto v) {static hcc_region_desc __hcc_rd3 = {"lambda at t.cpp:6", "", "t.cpp", 6, 6, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g3, &__hcc_rd3); return v; };
  return add(1) + any(2) + any('c');
}
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp", {"-std=c++17"}), out);
}

TEST(FunctionGuards, LambdaNameHasTheBaseNameDescriptorTheFullName) {
  const char *in = "auto f = [](int x) { return x; };\n";
  const char *out = R"cc(auto f = [](int x) {static hcc_region_desc __hcc_rd0 = {"lambda at app.cpp:1", "", "src/app.cpp", 1, 1, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return x; };
)cc";
  EXPECT_EQ(rewritten(in, "src/app.cpp"), out);
}

TEST(FunctionGuards, LambdaInsideTemplateIsRewrittenOnce) {
  const char *in = R"cc(template <class T> T each(T t) {
  auto f = [&t] { return t; };
  return f();
}
int use() { return each(1) + (int)each(2.0); }
)cc";
  const char *out = R"cc(template <class T> T each(T t) {static hcc_region_desc __hcc_rd0 = {__PRETTY_FUNCTION__, "", "t.cpp", 1, 4, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  auto f = [&t] {static hcc_region_desc __hcc_rd1 = {"lambda at t.cpp:2", "", "t.cpp", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return t; };
  return f();
}
int use() {static hcc_region_desc __hcc_rd2 = {"use()", "_Z3usev", "t.cpp", 5, 5, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g2, &__hcc_rd2); return each(1) + (int)each(2.0); }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(FunctionGuards, FunctionTryBlockGuardGoesAfterTryBrace) {
  const char *in = R"cc(int parse(const char *s) try {
  if (!s) throw 1;
  return 1;
} catch (int) {
  return -1;
}
struct P {
  int n;
  P() try : n(1) {
  } catch (...) {
  }
};
)cc";
  const char *out = R"cc(int parse(const char *s) try {static hcc_region_desc __hcc_rd0 = {"parse(const char *)", "_Z5parsePKc", "t.cpp", 1, 6, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  if (!s) throw 1;
  return 1;
} catch (int) {
  return -1;
}
struct P {
  int n;
  P() try : n(1) {static hcc_region_desc __hcc_rd1 = {"P::P()", "_ZN1PC1Ev", "t.cpp", 9, 11, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1);
  } catch (...) {
  }
};
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(FunctionGuards, MainExternCAnonymousNamespaceAndLocalClass) {
  const char *in = R"cc(extern "C" {
int c_api(int x) { return x; }
}
namespace {
int hidden(int (*f)(int)) {
  struct Local {
    static int one() { return 1; }
  };
  return f(Local::one());
}
}
int main(int argc, char **) { return hidden(c_api) + argc; }
)cc";
  // main and extern "C" functions are named like their symbol, as in C.
  const char *out = R"cc(extern "C" {
int c_api(int x) {static hcc_region_desc __hcc_rd0 = {"c_api", "c_api", "t.cpp", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return x; }
}
namespace {
int hidden(int (*f)(int)) {static hcc_region_desc __hcc_rd1 = {"(anonymous namespace)::hidden(int (*)(int))", "_ZN12_GLOBAL__N_16hiddenEPFiiE", "t.cpp", 5, 10, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1);
  struct Local {
    static int one() {static hcc_region_desc __hcc_rd2 = {"(anonymous namespace)::hidden(int (*)(int))::Local::one()", "_ZZN12_GLOBAL__N_16hiddenEPFiiEEN5Local3oneEv", "t.cpp", 7, 7, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g2, &__hcc_rd2); return 1; }
  };
  return f(Local::one());
}
}
int main(int argc, char **) {static hcc_region_desc __hcc_rd3 = {"main", "main", "t.cpp", 12, 12, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g3, &__hcc_rd3); return hidden(c_api) + argc; }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(FunctionGuards, MacroThatOnlyDeclaresTheFunctionIsFine) {
  // The braces are the user's text; only the signature comes from the macro.
  const char *in = R"cc(#define HANDLER(name) void name(int code)
HANDLER(on_error) {
  (void)code;
}
)cc";
  const char *out = R"cc(#define HANDLER(name) void name(int code)
HANDLER(on_error) {static hcc_region_desc __hcc_rd0 = {"on_error", "on_error", "t.c", 2, 4, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  (void)code;
}
)cc";
  EXPECT_EQ(rewritten(in, "t.c"), out);
}

TEST(FunctionGuards, FileNameIsEscapedForAStringLiteral) {
  rewriter::Result r = rewrite("void f(void) {}\n", "a\\b\t?\?=.c");
  ASSERT_TRUE(r.ok);
  EXPECT_NE(r.output.find(R"cc({"f", "f", "a\\b\t?\?=.c", 1, 1, 0, 0})cc"), std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace hcc::test

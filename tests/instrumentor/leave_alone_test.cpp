// function_guards: the functions that must stay exactly as written, and the
// reason hcc gives for each (what `hcc-instrument --verbose` prints).
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace hcc::test {
namespace {

// A guard in a signal handler can deadlock (the runtime may calloc a node
// while the handler interrupted malloc) or corrupt the shadow stack, so a
// function installed as a handler, and what it calls, stays as written:
// through signal(), an sa_handler / sa_sigaction assignment, a struct
// sigaction initializer, or a captureless lambda. The rest is guarded.
TEST(LeaveAlone, SignalHandlersAndWhatTheyCall) {
  const char *in = R"cc(#include <signal.h>
#include <string.h>
static volatile int hits;
static void count_hit() { hits = hits + 1; }
static void on_alarm(int) { count_hit(); }
static void on_usr1(int, siginfo_t *, void *) { hits = 0; }
static void on_usr2(int) {}
static void on_term(int) {}
int work(int n) { count_hit(); return n + 1; }
int install() {
  signal(SIGALRM, on_alarm);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = &on_usr1;
  sigaction(SIGUSR1, &sa, 0);
  struct sigaction sb = {};
  sb.sa_handler = [](int) { hits = 2; };
  sigaction(SIGHUP, &sb, 0);
  sigset(SIGUSR2, on_usr2);
  signal(SIGTERM, (void (*)(int))on_term);
  return work(1);
}
)cc";
  rewriter::Result r = rewrite(in, "t.cpp");
  ASSERT_TRUE(r.ok);
  for (const char *m : {"hcc: t.cpp:5: leaving 'on_alarm' alone: signal handler (installed at t.cpp:11)",
                        "hcc: t.cpp:4: leaving 'count_hit' alone: called from the signal handler 'on_alarm'",
                        "hcc: t.cpp:6: leaving 'on_usr1' alone: signal handler (installed at t.cpp:14)",
                        "hcc: t.cpp:7: leaving 'on_usr2' alone: signal handler (installed at t.cpp:19)",
                        "hcc: t.cpp:8: leaving 'on_term' alone: signal handler (installed at t.cpp:20)",
                        "hcc: t.cpp:17: leaving 'lambda at t.cpp:17' alone: signal handler (installed at t.cpp:17)"})
    EXPECT_TRUE(hasMessage(r, m)) << m;
  EXPECT_NE(r.output.find("{\"work(int)\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("{\"install()\""), std::string::npos) << r.output;
  EXPECT_EQ(r.guards, 2u) << r.output;
}

TEST(LeaveAlone, ConstexprFunctionKeepsItsBody) {
  // A static local is not allowed in a constexpr function (before C++23).
  const char *in = R"cc(constexpr int sq(int x) { return x * x; }
static_assert(sq(3) == 9, "");
int use(int y) { return sq(y); }
)cc";
  const char *out = R"cc(constexpr int sq(int x) { return x * x; }
static_assert(sq(3) == 9, "");
int use(int y) {static hcc_region_desc __hcc_rd0 = {"use(int)", "_Z3usei", "t.cpp", 3, 3, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return sq(y); }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
  rewriter::Result r = rewrite(in, "t.cpp");
  EXPECT_TRUE(hasMessage(r, "hcc: t.cpp:1: leaving 'sq' alone: constexpr")) << r.messages.size();
}

TEST(LeaveAlone, ConstevalFunction) {
  const char *in = R"cc(consteval int cube(int x) { return x * x * x; }
int use() { return cube(2); }
)cc";
  const char *out = R"cc(consteval int cube(int x) { return x * x * x; }
int use() {static hcc_region_desc __hcc_rd0 = {"use()", "_Z3usev", "t.cpp", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return cube(2); }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp", {"-std=c++20"}), out);
  EXPECT_TRUE(hasMessage(rewrite(in, "t.cpp", {"-std=c++20"}),
                         "hcc: t.cpp:1: leaving 'cube' alone: consteval"));
}

TEST(LeaveAlone, ConstexprMembersAndTemplates) {
  const char *in = R"cc(struct V {
  constexpr V(int x) : x_(x) {}
  constexpr int get() const { return x_; }
  int x_;
};
template <class T> constexpr T zero() { return T(); }
int use() { return V(zero<int>()).get(); }
)cc";
  std::string got = rewritten(in, "t.cpp");
  EXPECT_EQ(got.find("__hcc_rd1"), std::string::npos) << got;  // only use() has a guard
  EXPECT_NE(got.find("int use() {static hcc_region_desc __hcc_rd0 = {\"use()\""),
            std::string::npos)
      << got;
}

TEST(LeaveAlone, LambdasThatMayRunAtCompileTime) {
  const char *in = R"cc(auto k = [](int x) constexpr { return x + 1; };
constexpr auto sq = [](int x) { return x * x; };
static_assert([](int x) { return x; }(1) == 1, "");
constexpr int f(int x) { return [x] { return x; }(); }
int run(int v) { return k(v) + sq(v) + f(v) + [](int x) { return x; }(v); }
)cc";
  // Only run() and the last lambda: the others may be evaluated by the
  // compiler, where a static local is an error.
  const char *out = R"cc(auto k = [](int x) constexpr { return x + 1; };
constexpr auto sq = [](int x) { return x * x; };
static_assert([](int x) { return x; }(1) == 1, "");
constexpr int f(int x) { return [x] { return x; }(); }
int run(int v) {static hcc_region_desc __hcc_rd0 = {"run(int)", "_Z3runi", "t.cpp", 5, 5, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return k(v) + sq(v) + f(v) + [](int x) {static hcc_region_desc __hcc_rd1 = {"lambda at t.cpp:5", "", "t.cpp", 5, 5, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return x; }(v); }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp", {"-std=c++17"}), out);
  rewriter::Result r = rewrite(in, "t.cpp", {"-std=c++17"});
  EXPECT_TRUE(hasMessage(r, "t.cpp:1: leaving 'lambda at t.cpp:1' alone: constexpr"));
  EXPECT_TRUE(hasMessage(r, "t.cpp:2: leaving 'lambda at t.cpp:2' alone: may be evaluated"));
  EXPECT_TRUE(hasMessage(r, "t.cpp:3: leaving 'lambda at t.cpp:3' alone: may be evaluated"));
  EXPECT_TRUE(hasMessage(r, "t.cpp:4: leaving 'lambda at t.cpp:4' alone: may be evaluated"));
}

TEST(LeaveAlone, LambdasInArrayBoundsAndCaseLabels) {
  // Sema wraps both in ConstantExpr: the lambda runs at compile time.
  const char *in = R"cc(int pick(int v) {
  int buf[([] { return 4; }())] = {};
  switch (v) {
    case [] { return 1; }(): return buf[0];
  }
  return [] { return 2; }();
}
)cc";
  const char *out = R"cc(int pick(int v) {static hcc_region_desc __hcc_rd0 = {"pick(int)", "_Z4picki", "t.cpp", 1, 7, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  int buf[([] { return 4; }())] = {};
  switch (v) {
    case [] { return 1; }(): return buf[0];
  }
  return [] {static hcc_region_desc __hcc_rd1 = {"lambda at t.cpp:6", "", "t.cpp", 6, 6, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g1, &__hcc_rd1); return 2; }();
}
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp", {"-std=c++17"}), out);
}

TEST(LeaveAlone, Coroutine) {
  const char *in = R"cc(#include <coroutine>
struct Task {
  struct promise_type {
    Task get_return_object() { return {}; }
    std::suspend_never initial_suspend() { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() {}
  };
};
Task work() { co_return; }
auto later = []() -> Task { co_await std::suspend_never{}; };
)cc";
  rewriter::Result r = rewrite(in, "t.cpp", {"-std=c++20"});
  ASSERT_TRUE(r.ok) << (r.messages.empty() ? "" : r.messages[0]);
  // The coroutine body is a CoroutineBodyStmt: a guard there would run in the
  // coroutine frame, across suspensions. The promise's members are ordinary.
  EXPECT_NE(r.output.find("Task work() { co_return; }\n"), std::string::npos);
  EXPECT_NE(r.output.find("auto later = []() -> Task { co_await"), std::string::npos);
  EXPECT_TRUE(hasMessage(r, "t.cpp:11: leaving 'work' alone: coroutine"));
  EXPECT_TRUE(hasMessage(r, "t.cpp:12: leaving 'lambda at t.cpp:12' alone: coroutine"));
  EXPECT_EQ(r.guards, 5u);  // the five promise_type members
}

TEST(LeaveAlone, NakedAndNoInstrumentFunction) {
  const char *in = R"cc(__attribute__((naked)) void entry(void) { __asm__("ret"); }
__attribute__((no_instrument_function)) int quiet(void) { return 0; }
int loud(void) { return quiet(); }
)cc";
  const char *out = R"cc(__attribute__((naked)) void entry(void) { __asm__("ret"); }
__attribute__((no_instrument_function)) int quiet(void) { return 0; }
int loud(void) {static hcc_region_desc __hcc_rd0 = {"loud", "loud", "t.c", 3, 3, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return quiet(); }
)cc";
  EXPECT_EQ(rewritten(in, "t.c"), out);
  rewriter::Result r = rewrite(in, "t.c");
  EXPECT_TRUE(hasMessage(r, "t.c:1: leaving 'entry' alone: naked function"));
  EXPECT_TRUE(hasMessage(r, "t.c:2: leaving 'quiet' alone: no_instrument_function"));
}

TEST(LeaveAlone, NoInstrumentFunctionOnAnEarlierDeclaration) {
  const char *in = R"cc(int quiet(void) __attribute__((no_instrument_function));
int quiet(void) { return 0; }
)cc";
  EXPECT_EQ(rewritten(in, "t.c"), in);
}

TEST(LeaveAlone, BodyFromAMacro) {
  const char *in = R"cc(#define GETTER(name, value) int name(void) { return value; }
GETTER(answer, 42)
#define BODY { return 1; }
int one(void) BODY
)cc";
  EXPECT_EQ(rewritten(in, "t.c"), in);
  rewriter::Result r = rewrite(in, "t.c");
  EXPECT_TRUE(hasMessage(r, "t.c:2: leaving 'answer' alone: body braces come from a macro"));
  EXPECT_TRUE(hasMessage(r, "t.c:4: leaving 'one' alone: body braces come from a macro"));
}

TEST(LeaveAlone, LambdaInAMacroArgument) {
  // The guard's commas would split the macro argument, and a macro may
  // stringize its argument into the program's output.
  const char *in = R"cc(#define TWICE(x) (x) + (x)
int two() { return TWICE([] { return 1; }()); }
)cc";
  const char *out = R"cc(#define TWICE(x) (x) + (x)
int two() {static hcc_region_desc __hcc_rd0 = {"two()", "_Z3twov", "t.cpp", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return TWICE([] { return 1; }()); }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
  rewriter::Result r = rewrite(in, "t.cpp");
  EXPECT_EQ(std::count(r.messages.begin(), r.messages.end(),
                       "hcc: t.cpp:2: leaving 'lambda at t.cpp:2' alone: body braces come from a "
                       "macro expansion"),
            1);  // once, though the macro expands it twice
}

TEST(LeaveAlone, CInlineWithExternalLinkage) {
  // C99 6.7.4p3 forbids a modifiable static object in these; `static inline`
  // is fine.
  const char *in = R"cc(inline int isq(int x) { return x * x; }
extern inline int esq(int x) { return x * x; }
static inline int ssq(int x) { return x * x; }
)cc";
  const char *out = R"cc(inline int isq(int x) { return x * x; }
extern inline int esq(int x) { return x * x; }
static inline int ssq(int x) {static hcc_region_desc __hcc_rd0 = {"ssq", "ssq", "t.c", 3, 3, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return x * x; }
)cc";
  EXPECT_EQ(rewritten(in, "t.c", {"-std=c99"}), out);
  rewriter::Result r = rewrite(in, "t.c", {"-std=c99"});
  EXPECT_TRUE(hasMessage(r, "t.c:1: leaving 'isq' alone: C inline function with external linkage"));
  EXPECT_TRUE(hasMessage(r, "t.c:2: leaving 'esq' alone: C inline function with external linkage"));
}

TEST(LeaveAlone, CxxInlineFunctionsAreInstrumented) {
  // In C++ a static local in an inline function is one object program-wide.
  const char *in = "inline int isq(int x) { return x * x; }\n";
  const char *out = R"cc(inline int isq(int x) {static hcc_region_desc __hcc_rd0 = {"isq(int)", "_Z3isqi", "t.cpp", 1, 1, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return x * x; }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(LeaveAlone, HccRuntimeFunctions) {
  const char *in = R"cc(void hcc_helper(void) {}
static void __hcc_internal(void) {}
)cc";
  EXPECT_EQ(rewritten(in, "t.c"), in);
  EXPECT_TRUE(hasMessage(rewrite(in, "t.c"), "leaving 'hcc_helper' alone: hcc runtime function"));
}

TEST(LeaveAlone, DeletedDefaultedAndImplicitMembers) {
  const char *in = R"cc(struct N {
  N() = default;
  N(const N &) = delete;
  ~N() = default;
  int v = 0;
};
struct D { N n; };
D make() { return D(); }
)cc";
  const char *out = R"cc(struct N {
  N() = default;
  N(const N &) = delete;
  ~N() = default;
  int v = 0;
};
struct D { N n; };
D make() {static hcc_region_desc __hcc_rd0 = {"make()", "_Z4makev", "t.cpp", 8, 8, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return D(); }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp", {"-std=c++17"}), out);
  rewriter::Result r = rewrite(in, "t.cpp", {"-std=c++17"});
  EXPECT_TRUE(hasMessage(r, "t.cpp:2: leaving 'N::N' alone: defaulted"));
  EXPECT_TRUE(hasMessage(r, "t.cpp:3: leaving 'N::N' alone: deleted"));
}

TEST(LeaveAlone, HeaderFunctionsAreNotTouched) {
  const std::map<std::string, std::string> headers = {
      {"util.h", R"cc(#pragma once
inline int twice(int x) { return 2 * x; }
template <class T> T id(T t) { return t; }
struct Counter { int n = 0; void bump() { ++n; } };
static int helper(void) { return 1; }
)cc"}};
  const char *in = R"cc(#include "util.h"
int run() { Counter c; c.bump(); return twice(id(c.n)) + helper(); }
)cc";
  const char *out = R"cc(#include "util.h"
int run() {static hcc_region_desc __hcc_rd0 = {"run()", "_Z3runv", "t.cpp", 2, 2, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); Counter c; c.bump(); return twice(id(c.n)) + helper(); }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp", {}, headers), out);
  EXPECT_EQ(rewrite(in, "t.cpp", {}, headers).guards, 1u);
}

TEST(LeaveAlone, HeaderConstexprAndAutoFunctionsStillWork) {
  // Header bodies are skipped by the parser, except those Sema needs:
  // constexpr evaluation and return type deduction must still succeed.
  const std::map<std::string, std::string> headers = {
      {"calc.h", R"cc(#pragma once
constexpr int kSize(int n) { return n * 4; }
inline auto half(double d) { return d / 2; }
template <class T> auto wrap(T t) { struct W { T v; }; return W{t}; }
)cc"}};
  const char *in = R"cc(#include "calc.h"
int buf[kSize(2)];
double run() { return half(3.0) + wrap(1).v + sizeof buf; }
)cc";
  rewriter::Result r = rewrite(in, "t.cpp", {"-std=c++14"}, headers);
  ASSERT_TRUE(r.ok) << (r.messages.empty() ? "" : r.messages[0]);
  EXPECT_EQ(r.guards, 1u);
}

TEST(LeaveAlone, UnparseableInputFails) {
  rewriter::Result r = rewrite("int f( { return 0; }\n", "bad.c");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.output.empty());
  EXPECT_TRUE(hasMessage(r, "hcc: bad.c:1:")) << (r.messages.empty() ? "" : r.messages[0]);
  EXPECT_TRUE(hasMessage(r, "error:"));
}

TEST(LeaveAlone, MissingHeaderFails) {
  rewriter::Result r = rewrite("#include \"nowhere.h\"\nint f(void) { return 0; }\n", "t.c");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(hasMessage(r, "'nowhere.h' file not found"));
}

}  // namespace
}  // namespace hcc::test

// setjmp_marks: every setjmp-family call in the main file is preceded by
// hcc_setjmp_mark(env), inserted as text around the call as written.
#include "test_support.h"

#include <gtest/gtest.h>

namespace hcc::test {
namespace {

TEST(SetjmpMarks, SetjmpMacroIsWrappedAsWritten) {
  // glibc: #define setjmp(env) _setjmp (env). The text `setjmp(env)` is wrapped,
  // not the expansion.
  const char *in = R"cc(#include <setjmp.h>
static jmp_buf env;
int try_it(void) {
  if (setjmp(env) == 0) return 0;
  return 1;
}
)cc";
  const char *out = R"cc(#include <setjmp.h>
static jmp_buf env;
int try_it(void) {static hcc_region_desc __hcc_rd0 = {"try_it", "try_it", "t.c", 3, 6, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  if ((hcc_setjmp_mark(env), setjmp(env)) == 0) return 0;
  return 1;
}
)cc";
  EXPECT_EQ(rewritten(in, "t.c"), out);
  EXPECT_EQ(rewrite(in, "t.c").setjmp_marks, 1u);
}

TEST(SetjmpMarks, AllFourSpellingsAndComplexEnvironments) {
  const char *in = R"cc(#include <setjmp.h>
struct ctx { jmp_buf jb[2]; sigjmp_buf sj; };
int many(struct ctx *c, int i) {
  int r = _setjmp(c->jb[i]);
  r += sigsetjmp(c->sj, 1);
  r += __sigsetjmp(c->sj, 0);
  switch (setjmp( c->jb[0] )) { default: break; }
  return r;
}
)cc";
  const char *out = R"cc(#include <setjmp.h>
struct ctx { jmp_buf jb[2]; sigjmp_buf sj; };
int many(struct ctx *c, int i) {static hcc_region_desc __hcc_rd0 = {"many", "many", "t.c", 3, 9, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0);
  int r = (hcc_setjmp_mark(c->jb[i]), _setjmp(c->jb[i]));
  r += (hcc_setjmp_mark(c->sj), sigsetjmp(c->sj, 1));
  r += (hcc_setjmp_mark(c->sj), __sigsetjmp(c->sj, 0));
  switch ((hcc_setjmp_mark(c->jb[0]), setjmp( c->jb[0] ))) { default: break; }
  return r;
}
)cc";
  EXPECT_EQ(rewritten(in, "t.c"), out);
}

TEST(SetjmpMarks, CxxCsetjmp) {
  const char *in = R"cc(#include <csetjmp>
std::jmp_buf where;
bool first() { return setjmp(where) == 0; }
)cc";
  const char *out = R"cc(#include <csetjmp>
std::jmp_buf where;
bool first() {static hcc_region_desc __hcc_rd0 = {"first()", "_Z5firstv", "t.cpp", 3, 3, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); return (hcc_setjmp_mark(where), setjmp(where)) == 0; }
)cc";
  EXPECT_EQ(rewritten(in, "t.cpp"), out);
}

TEST(SetjmpMarks, CallInAMacroArgumentIsWrappedWhereWritten) {
  // The wrap is parenthesized, so its comma does not split the argument.
  const char *in = R"cc(#include <setjmp.h>
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
jmp_buf env;
int f(void) { if (UNLIKELY(setjmp(env))) return 1; return 0; }
)cc";
  const char *out = R"cc(#include <setjmp.h>
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
jmp_buf env;
int f(void) {static hcc_region_desc __hcc_rd0 = {"f", "f", "t.c", 4, 4, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); if (UNLIKELY((hcc_setjmp_mark(env), setjmp(env)))) return 1; return 0; }
)cc";
  EXPECT_EQ(rewritten(in, "t.c"), out);
}

TEST(SetjmpMarks, CallInsideAUserMacroIsLeftAndReported) {
  // The call has no text of its own: it is part of TRY's expansion.
  const char *in = R"cc(#include <setjmp.h>
jmp_buf env;
#define TRY if (setjmp(env) == 0)
void body(void);
void guarded(void) { TRY body(); }
)cc";
  rewriter::Result r = rewrite(in, "t.c");
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.setjmp_marks, 0u);
  EXPECT_EQ(r.output.find("hcc_setjmp_mark"), std::string::npos);
  EXPECT_TRUE(hasMessage(r, "t.c:5: leaving a setjmp call unmarked: it is inside a macro"));
}

TEST(SetjmpMarks, UserFunctionsNamedSetjmpAreNotMarked) {
  const char *in = R"cc(struct Saver { int setjmp(int x) { return x; } };
int use(Saver &s) { return s.setjmp(1); }
)cc";
  rewriter::Result r = rewrite(in, "t.cpp");
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.setjmp_marks, 0u);
}

TEST(SetjmpMarks, HeaderCallsAreNotMarked) {
  const std::map<std::string, std::string> headers = {{"jmp.h", R"cc(#include <setjmp.h>
static inline int save(jmp_buf e) { return setjmp(e); }
)cc"}};
  rewriter::Result r = rewrite("#include \"jmp.h\"\nint x;\n", "t.c", {}, headers);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.setjmp_marks, 0u);
}

}  // namespace
}  // namespace hcc::test

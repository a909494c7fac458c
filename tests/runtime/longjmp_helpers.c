/* C code that leaves three instrumented frames by longjmp, as C programs do
 * (the cleanup-attribute guards do not run when longjmp skips them). */
#include <setjmp.h>

#include "hcc/detail/inject.h"
#include "longjmp_helpers.h"

static hcc_region_desc level1_d = {"lj_level1", 0, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};
static hcc_region_desc level2_d = {"lj_level2", 0, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};
static hcc_region_desc level3_d = {"lj_level3", 0, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};

static jmp_buf env;
static jmp_buf unmarked_env; /* never marked, by any test */
static sigjmp_buf sigenv;
static jmp_buf *target;

static void level3(int kind) {
  HCC_FUNCTION_GUARD_(g, &level3_d);
  switch (kind) {
    case HCC_TEST_LONGJMP: longjmp(*target, 1);
    case HCC_TEST__LONGJMP: _longjmp(*target, 1);
    default: siglongjmp(sigenv, 1);
  }
}
static void level2(int kind) {
  HCC_FUNCTION_GUARD_(g, &level2_d);
  level3(kind);
}
static void level1(int kind) {
  HCC_FUNCTION_GUARD_(g, &level1_d);
  level2(kind);
}

int hcc_test_jump(int kind, int mark) {
  /* Exactly what the instrumentor writes around setjmp. */
  if (kind == HCC_TEST_SIGLONGJMP) {
    if ((mark ? hcc_setjmp_mark(sigenv) : (void)0, sigsetjmp(sigenv, 1)) == 0) {
      level1(kind);
      return 0;
    }
    return 1;
  }
  if (!mark) {
    target = &unmarked_env;
    if (setjmp(unmarked_env) == 0) {
      level1(kind);
      return 0;
    }
    return 1;
  }
  target = &env;
  if ((hcc_setjmp_mark(env), setjmp(env)) == 0) {
    level1(kind);
    return 0;
  }
  return 1;
}

static hcc_region_desc marker_d = {"lj_marker", 0, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};

/* Marks `env` from a function that then returns: the mark goes stale. */
static void marker(void) {
  HCC_FUNCTION_GUARD_(g, &marker_d);
  hcc_setjmp_mark(env);
}

int hcc_test_stale_mark_jump(void) {
  marker();
  target = &env;
  /* Code hcc never saw (a library) now uses the same buffer, unmarked. */
  if (setjmp(env) == 0) {
    level1(HCC_TEST_LONGJMP);
    return 0;
  }
  return 1;
}

static hcc_region_desc ping_d = {"lj_ping", 0, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};
static hcc_region_desc pong_d = {"lj_pong", 0, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};
static jmp_buf rec_env;

static void pong(int left);
static void ping(int left) {
  HCC_FUNCTION_GUARD_(g, &ping_d);
  if (left <= 1) longjmp(rec_env, 1);
  pong(left - 1);
}
static void pong(int left) {
  HCC_FUNCTION_GUARD_(g, &pong_d);
  if (left <= 1) longjmp(rec_env, 1);
  ping(left - 1);
}

int hcc_test_jump_from_recursion(int depth) {
  if ((hcc_setjmp_mark(rec_env), setjmp(rec_env)) == 0) {
    ping(depth);
    return 0;
  }
  return 1;
}

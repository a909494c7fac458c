/* Built with _FORTIFY_SOURCE=2: glibc turns longjmp into __longjmp_chk. */
#include <setjmp.h>

#include "hcc/detail/inject.h"
#include "longjmp_helpers.h"

static hcc_region_desc f1_d = {"ljf_level1", 0, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};
static hcc_region_desc f2_d = {"ljf_level2", 0, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};
static hcc_region_desc f3_d = {"ljf_level3", 0, __FILE__, __LINE__, __LINE__, HCC_KIND_FUNCTION, 0};

static jmp_buf env;

static void f3(void) {
  HCC_FUNCTION_GUARD_(g, &f3_d);
  longjmp(env, 1);
}
static void f2(void) {
  HCC_FUNCTION_GUARD_(g, &f2_d);
  f3();
}
static void f1(void) {
  HCC_FUNCTION_GUARD_(g, &f1_d);
  f2();
}

int hcc_test_jump_fortified(void) {
  if ((hcc_setjmp_mark(env), setjmp(env)) == 0) {
    f1();
    return 0;
  }
  return 1;
}

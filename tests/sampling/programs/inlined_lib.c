/* Built plainly with -g (not instrumented): lib_outer burns `cpu` seconds of
 * its thread's CPU in lib_kernel, inlined into it (inlined_main.c). */
#include "../../support/cpu_spin.h"

static inline __attribute__((always_inline)) double lib_kernel(double x, long i) {
  return x * 0.998 + (double)(i & 7) / (x + 2.5);
}

double lib_outer(double cpu) {
  double x = 1;
  HCC_SPIN_CPU("lib_outer", cpu, for (long i = 0; i < (1L << 18); ++i) x = lib_kernel(x, i));
  return x;
}

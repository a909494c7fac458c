/* Inlined calls in sampled frames (built through hcc, hot_inline excluded):
 * work() is instrumented and burns 0.3 s of CPU in hot_inline(), a function
 * inlined into it; lib_outer() (inlined_lib.c, built plainly) burns 0.3 s in
 * its own inlined lib_kernel(). Their samples must show the inlined calls:
 * main/work/hot_inline [inlined], main/lib_outer/lib_kernel [inlined]. */
#include <stdio.h>

#include "../../support/cpu_spin.h"

double lib_outer(double cpu);

volatile double sink;

static inline __attribute__((always_inline)) double hot_inline(double x, long i) {
  return x * 0.999 + (double)(i & 15) / (x + 1.5);
}

void work(void) {
  double x = 1;
  HCC_SPIN_CPU("work", 0.3, for (long i = 0; i < (1L << 18); ++i) x = hot_inline(x, i));
  sink = x;
}

int main(void) {
  work();
  sink = lib_outer(0.3);
  printf("done\n");
  return 0;
}

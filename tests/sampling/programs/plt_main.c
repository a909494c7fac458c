/* Instrumented (built through hcc): main calls plt_tiny, a one-line function
 * of a shared library (plt_lib.c), through the PLT in a loop until its
 * thread has used 0.4 s of CPU: a fair part of the samples land in the PLT
 * stub itself. */
#include <stdio.h>

#include "../../support/cpu_spin.h"

long plt_tiny(long i);

int main(void) {
  long s = 0, i = 0;
  HCC_SPIN_CPU("plt loop", 0.4, for (long k = 0; k < (1L << 20); ++k) s += plt_tiny(i++));
  printf("%s\n", s != 0 ? "done" : "zero");
  return 0;
}

/* Whole-program overhead: a tiny function that is not inlined, called 10^8
 * times. The plain and the hcc build are timed by whole_program.sh, and by
 * pair_floor.sh through the loop's own CPU time on stderr (pair_clock.h). */
#include <stdio.h>

#include "pair_clock.h"

__attribute__((noinline)) long tiny(long x) {
  PAIR_RDTSC_READ(); /* nothing unless built with -DPAIR_RDTSC (pair_clock.h) */
  long r = x ^ (x >> 3);
  PAIR_RDTSC_READ();
  return r;
}

int main(void) {
  long s = 0;
  const long long t0 = PAIR_CPU_NS();
  for (long i = 0; i < 100000000L; i++) s += tiny(i);
  PAIR_REPORT(100000000L, PAIR_CPU_NS() - t0);
  printf("%ld\n", s);
  return 0;
}

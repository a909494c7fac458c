/* Count mode with HCC_SAMPLING: spin is counted and calls helper, which the
 * filter excludes (no guard), so the CPU time goes to a frame only sampling
 * sees, below a counted call path. A fixed amount of work, not of time. */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long helper(unsigned long n) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; ++i) s += i ^ (s >> 3);
  return s;
}

__attribute__((noinline)) unsigned long spin(unsigned long n) { return helper(n) + 1; }

int main(void) {
  unsigned long s = 0;
  for (int i = 0; i < 4; ++i) s += spin(50000000UL);
  sink = s;
  printf("%lu\n", s);
  return 0;
}

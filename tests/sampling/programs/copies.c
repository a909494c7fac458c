/* GCC -O2 makes several machine copies of heavy() and light(): heavy is
 * inlined into main, light into heavy, and their out-of-line copies run
 * the recursion; only the copy that registered a region is known to the
 * sampler as instrumented. heavy() does 3 units of work, light() 1 unit
 * (20x attribution.c's, ~0.5 s of CPU), calling each other 8 levels deep:
 * heavy's exclusive share of the two is 96 units of 124, light's 28. */
#include <stdio.h>

static volatile unsigned long sink;

/* A macro, not a function: the work must be the caller's own code. */
#define WORK(units)                                                 \
  do {                                                              \
    for (long i_ = 0; i_ < (units) * 16000000L; ++i_) sink += (unsigned long)i_; \
  } while (0)

void light(int n);

void heavy(int n) {
  WORK(3);
  if (n > 1) light(n);
}

void light(int n) {
  WORK(1);
  heavy(n - 1);
}

int main(void) {
  for (int r = 0; r < 4; ++r) heavy(8); /* heavy 32 calls, light 28 */
  printf("done %lu\n", sink > 0 ? 1UL : 0UL);
  return 0;
}

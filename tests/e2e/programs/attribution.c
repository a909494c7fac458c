/* Recursion through another function where each function's own work is
 * known by construction: heavy() does 3 units, light() 1 unit, and they
 * call each other 8 levels deep. Folded, the profile must still give each
 * its own work: heavy's exclusive share of the two is 96 units of 124,
 * light's 28 (counting time inclusively per frame would put heavy's inner
 * work into light). */
#include <stdio.h>

static volatile unsigned long sink;

/* Iterations per unit of work (the sampling test takes 20 times more, for
 * ~120 samples: tests/sampling, CopiesOfAnInstrumentedFunctionAreThatFunction). */
#ifndef ATTRIBUTION_UNIT
#define ATTRIBUTION_UNIT 800000L
#endif

/* A macro, not a function: the work must be the caller's own code. */
#define WORK(units)                                                 \
  do {                                                              \
    for (long i_ = 0; i_ < (units) * ATTRIBUTION_UNIT; ++i_) sink += (unsigned long)i_; \
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

/* Samples inside an OpenMP parallel region, in a build with no function
 * instrumented (--hcc-functions=none): only the construct is a region.
 * Each of two threads burns 0.2 s of its CPU in the region's body. */
#include <stdio.h>

#include "../../support/cpu_spin.h"

int main(void) {
  double total = 0;
#pragma omp parallel num_threads(2) reduction(+ : total)
  {
    double x = 0;
    HCC_SPIN_CPU("body", 0.2, for (long i = 0; i < (1L << 18); ++i) x += (double)(i & 7) * 0.5);
    total += x > 0;
  }
  printf("%g\n", total);
  return 0;
}

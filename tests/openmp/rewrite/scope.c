/* hcc-test-compilers: gcc
 * OpenMP 5.1 scope (Clang 19 parses it but cannot compile it): a
 * worksharing construct, nowait added and its barrier measured. */
#include <stdio.h>
int main(void) {
  int t = 0, u = 0;
#pragma omp parallel num_threads(4)
  {
#pragma omp scope reduction(+:t)
    t += 1;
#pragma omp scope private(u) nowait
    {
      u = 1;
      (void)u;
    }
#pragma omp barrier
  }
  printf("%d\n", t);
  return 0;
}

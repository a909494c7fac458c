/* hcc-test-compilers: gcc clang19
 * OpenMP 5.1 loop transformations: unroll full|partial and tile are timed
 * around the loop when they stand alone; as the loop of a worksharing loop
 * they must stay right under it. (GCC 12 ignores them, with a warning.) */
#include <stdio.h>
int main(void) {
  double a[64];
  for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp unroll partial(4)
  for (int i = 0; i < 64; i++) a[i] *= 2;
#pragma omp unroll full
  for (int i = 0; i < 4; i++) a[i] += 1;
#pragma omp parallel for
#pragma omp unroll partial(2)
  for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp tile sizes(8)
  for (int i = 0; i < 64; i++) a[i] -= 1;
  printf("%.1f %.1f\n", a[0], a[63]);
  return 0;
}

/* hcc-test-compilers: gcc clang19
 * OpenMP 5.0 `loop`: orphaned, bound to an enclosing parallel region, and
 * combined with parallel (split into parallel + loop). */
#include <stdio.h>
static void scale(double *a, int n) {
#pragma omp loop bind(thread)
  for (int i = 0; i < n; i++) a[i] *= 2;
}
int main(void) {
  double a[64], s = 0;
  int n = 64;
#pragma omp parallel loop
  for (int i = 0; i < n; i++) a[i] = i;
#pragma omp parallel num_threads(3)
  {
#pragma omp loop bind(parallel) order(concurrent)
    for (int i = 0; i < n; i++) a[i] += 1;
  }
#pragma omp parallel loop default(none) shared(a, n) reduction(+:s) collapse(1)
  for (int i = 0; i < n; i++) s += a[i];
  scale(a, n);
  printf("%.1f %.1f\n", s, a[63]);
  return 0;
}

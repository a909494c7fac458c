/* hcc-test-flags: -std=gnu11 -fopenmp
 * OpenMP: functions whose bodies hold parallel regions and worksharing. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static void init(double *restrict a, int n) {
  int i;
#pragma omp parallel for schedule(static)
  for (i = 0; i < n; ++i) a[i] = (double)i;
}

static double stencil(const double *restrict in, double *restrict out, int n) {
  double sum = 0;
  int i;
#pragma omp parallel
  {
#pragma omp for reduction(+ : sum)
    for (i = 1; i < n - 1; ++i) {
      out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
      sum += out[i];
    }
#pragma omp single
    { out[0] = in[0]; }
  }
  return sum;
}

int main(void) {
  int n = 1000;
  double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
  init(a, n);
  printf("%f %d\n", stencil(a, b, n), omp_get_max_threads() > 0);
  free(a);
  free(b);
  return 0;
}

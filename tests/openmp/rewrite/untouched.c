#include <stdio.h>
int tp;
#pragma omp threadprivate(tp)
#pragma omp declare simd
static double twice(double x) { return 2 * x; }
#define PAR _Pragma("omp parallel for reduction(+:s)")
int main(void) {
  double a[64], s = 0;
#pragma omp simd
  for (int i = 0; i < 64; i++) a[i] = twice(i);
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp target map(tofrom: a)
  for (int i = 0; i < 64; i++) a[i] += 1;
  PAR
  for (int i = 0; i < 64; i++) s += a[i];
#pragma omp target parallel num_threads(1) map(tofrom: a)
  a[1] += 0;
  printf("%.1f\n", s);
  return 0;
}

/* Prefix sums with `parallel for reduction(inscan, …)` and `scan`: the
 * combined construct is kept whole (split, Clang 19 computes wrong sums). */
#include <stdio.h>
#define N 1000
int main(void) {
  static int a[N], inc[N], exc[N];
  for (int i = 0; i < N; ++i) a[i] = i % 7 + 1;
  int x = 0, y = 0;
#pragma omp parallel for reduction(inscan, +: x) // [inclusive]
  for (int i = 0; i < N; ++i) {
    x += a[i];
#pragma omp scan inclusive(x)
    inc[i] = x;
  }
#pragma omp parallel for simd reduction(inscan, +: y) // [exclusive]
  for (int i = 0; i < N; ++i) {
    exc[i] = y;
#pragma omp scan exclusive(y)
    y += a[i];
  }
  long check = 0;
  for (int i = 0; i < N; ++i) check = (check * 31 + inc[i] * 7 + exc[i]) % 1000003;
  printf("inclusive %d %d %d\n", inc[0], inc[N / 2], inc[N - 1]);
  printf("exclusive %d %d %d\n", exc[0], exc[N / 2], exc[N - 1]);
  printf("check %ld\n", check);
  return 0;
}

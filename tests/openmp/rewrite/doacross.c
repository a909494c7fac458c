#include <stdio.h>
#define N 16
int main(void) {
  int a[N][N], lin = 0, i, j, k = 0;
  double s = 0, v[N];
  for (i = 0; i < N; i++) a[i][0] = a[0][i] = 1;
#pragma omp parallel num_threads(4)
  {
#pragma omp for ordered(2)
    for (i = 1; i < N; i++)
      for (j = 1; j < N; j++) {
#pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
        a[i][j] = (a[i - 1][j] + a[i][j - 1]) % 1000;
#pragma omp ordered depend(source)
      }
  }
#pragma omp parallel for simd num_threads(4) linear(k : 2) reduction(+ : s)
  for (i = 0; i < N; i++) { v[i] = k; s += v[i]; k += 2; }
#pragma omp parallel num_threads(4)
#pragma omp for linear(lin)
  for (i = 0; i < N; i++) lin++;
  printf("%d %.0f %d\n", a[N - 1][N - 1], s, lin);
  return 0;
}

/* A worksharing loop holding `cancel for` keeps its implicit barrier (it may
 * not take nowait); the loop is still measured. Without OMP_CANCELLATION the
 * cancel does nothing and every iteration runs. */
#include <stdio.h>
int main(void) {
  static int a[100];
  int seen = 0;
#pragma omp parallel shared(seen)
  {
#pragma omp for // [for]
    for (int i = 0; i < 100; ++i) {
      if (i == 1000) {
#pragma omp cancel for
      }
      a[i] = 2 * i;
#pragma omp atomic
      seen++;
    }
  }
  long s = 0;
  for (int i = 0; i < 100; ++i) s += a[i];
  printf("seen %d sum %ld\n", seen, s);
  return 0;
}

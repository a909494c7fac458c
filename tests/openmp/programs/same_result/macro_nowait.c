/* `nowait` hidden in a macro: no second nowait is added. */
#include <stdio.h>
#define FOR_CLAUSE nowait
int main(void) {
  static int a[64];
#pragma omp parallel
  {
#pragma omp for FOR_CLAUSE // [for]
    for (int i = 0; i < 64; ++i) a[i] = i + 1;
  }
  int s = 0;
  for (int i = 0; i < 64; ++i) s += a[i];
  printf("sum %d\n", s);
  return 0;
}

/* hcc-test-compilers: gcc clang19
 * OpenMP 5.1 masked combinations: parallel masked, masked taskloop [simd],
 * parallel masked taskloop with and without if modifiers, the master
 * forms. (Clang 19 compiles the combined masked taskloop forms to nothing;
 * their split form runs.) */
#include <stdio.h>
int main(void) {
  int a[64] = {0}, m = 0, nt = 3, big = 1;
#pragma omp parallel masked num_threads(nt) filter(0)
  m += 1;
#pragma omp parallel num_threads(nt)
  {
#pragma omp masked taskloop grainsize(strict: 8)
    for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp masked taskloop simd filter(0) num_tasks(strict: 4)
    for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp master taskloop
    for (int i = 0; i < 64; i++) a[i] += 1;
  }
#pragma omp parallel masked taskloop num_threads(nt) if(big)
  for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp parallel masked taskloop simd if(parallel: big) if(taskloop: big > 0) \
    default(none) shared(a, big)
  for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp parallel master taskloop num_threads(2)
  for (int i = 0; i < 64; i++) a[i] += 1;
  printf("%d %d\n", m, a[63]);
  return 0;
}

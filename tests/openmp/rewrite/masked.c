#include <omp.h>
#include <stdio.h>
int main(void) {
  int m = 0, f = 0, pm = 0, nt = 3;
#pragma omp parallel num_threads(nt)
  {
#pragma omp masked
    m++;
#pragma omp masked filter(1)
    {
      f += omp_get_thread_num();
    }
  }
#pragma omp parallel master num_threads(nt) default(none) shared(pm)
  pm += 1 + omp_get_thread_num();
  printf("%d %d %d\n", m, f, pm);
  return 0;
}

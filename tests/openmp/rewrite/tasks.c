#include <stdio.h>
static int done;
static void work(int i) {
#pragma omp atomic
  done += i;
}
int main(void) {
  int n = 0, g = 4;
#pragma omp parallel num_threads(3)
#pragma omp single
  {
#pragma omp taskgroup
    {
      for (int i = 0; i < 4; i++) {
#pragma omp task firstprivate(i)
        work(i);
      }
    }
#pragma omp taskloop grainsize(g)
    for (int i = 0; i < 16; i++) work(1);
#pragma omp taskloop num_tasks(3) reduction(+ : n)
    for (int i = 0; i < 16; i++) n++;
#pragma omp taskloop simd nogroup
    for (int i = 0; i < 8; i++)
      work(0);
#pragma omp taskwait
  }
  printf("%d %d\n", done, n);
  return 0;
}

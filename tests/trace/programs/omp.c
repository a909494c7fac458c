/* OpenMP workers are locations of their rank: each thread calls work() 8
 * times inside the parallel region; a worker's trace starts at the
 * parallel region (its copy of main's call path is not a call). */
#include <omp.h>
#include <stdio.h>
static volatile double sink;
static void work(int i) {
  for (int k = 0; k < 1000; ++k) sink += i * k;
}
int main(void) {
  int threads = 0;
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
    for (int i = 0; i < 8; ++i) work(i);
  }
  printf("threads %d\n", threads);
  return 0;
}

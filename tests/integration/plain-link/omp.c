/* An OpenMP object from `hcc -fopenmp -c`, linked by `gcc -fopenmp`. */
#include <omp.h>
#include <stdio.h>

static long work(int i) {
  long s = 0;
  for (int k = 0; k < 1000; ++k) s += (long)(i * k) % 7;
  return s;
}

int main(void) {
  long total = 0;
  int entered = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel for reduction(+ : total) num_threads(2)
  for (int i = 0; i < 100; ++i) total += work(i);
#pragma omp parallel num_threads(2)
  {
    omp_set_lock(&lock);
    ++entered;
    omp_unset_lock(&lock);
  }
  omp_destroy_lock(&lock);
  printf("total=%ld entered=%d\n", total, entered);
  return 0;
}

/* Findings stand-in, OpenMP load imbalance: ROUNDS times, a loop of one
 * iteration per thread (schedule(static, 1): iteration k is thread k's)
 * where iteration k works (k + 1) * UNIT seconds. Thread k waits
 * (T - 1 - k) * UNIT at the loop's implicit barrier, so the imbalance is
 * ROUNDS * UNIT * T (T - 1) / 2 by construction (2 threads: 0.6 s), and
 * the last thread is the one the others waited for. */
#include <omp.h>
#include <stdio.h>

#include "wall_spin.h"

#define ROUNDS 6
#define UNIT 0.1

int main(void) {
  double sum = 0;
  int threads = 0;
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
    for (int r = 0; r < ROUNDS; ++r) {
#pragma omp for schedule(static, 1) reduction(+ : sum)
      for (int k = 0; k < threads; ++k) sum += wall_spin((k + 1) * UNIT) > -1 ? 1 : 0;
    }
  }
  printf("threads %d, iterations %.0f\n", threads, sum);
  return 0;
}

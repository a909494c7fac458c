/* Findings stand-in, waiting at an explicit barrier: ROUNDS times thread k
 * works (k + 1) * UNIT seconds, then the team meets at `#pragma omp
 * barrier`. Thread k waits (T - 1 - k) * UNIT there: ROUNDS * UNIT *
 * T (T - 1) / 2 by construction (2 threads: 0.48 s), thread 1 the late one. */
#include <omp.h>
#include <stdio.h>

#include "wall_spin.h"

#define ROUNDS 6
#define UNIT 0.08

int main(void) {
  double sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    const int k = omp_get_thread_num();
    for (int r = 0; r < ROUNDS; ++r) {
      sum += wall_spin((k + 1) * UNIT) > -1 ? 1 : 0;
#pragma omp barrier
    }
  }
  printf("%.0f\n", sum);
  return 0;
}

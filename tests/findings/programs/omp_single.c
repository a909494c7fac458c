/* Findings stand-in, limited parallelism: ROUNDS times one thread of the
 * team does UNIT seconds of work in a `single` while the others have
 * nothing to do and wait at its implicit barrier: ROUNDS * UNIT * (T - 1)
 * by construction (2 threads: 0.48 s). */
#include <omp.h>
#include <stdio.h>

#include "wall_spin.h"

#define ROUNDS 6
#define UNIT 0.08

int main(void) {
  double sum = 0;
#pragma omp parallel
  {
    for (int r = 0; r < ROUNDS; ++r) {
#pragma omp single
      sum += wall_spin(UNIT) > -1 ? 1 : 0;
    }
  }
  printf("%.0f\n", sum);
  return 0;
}

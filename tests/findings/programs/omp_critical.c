/* Findings stand-in, OpenMP critical-section contention: ROUNDS times every
 * thread enters one critical section and holds it UNIT seconds; the k-th to
 * enter in a round waited k * UNIT for the ones before it, then works
 * (T - 1 - k) * UNIT outside so that every thread starts the next round at
 * the same time (no barrier, no imbalance). The waiting to enter is
 * ROUNDS * UNIT * T (T - 1) / 2 by construction (2 threads: 0.48 s). */
#include <omp.h>
#include <stdio.h>

#include "wall_spin.h"

#define ROUNDS 6
#define UNIT 0.08

int main(void) {
  int ticket = 0, threads = 0;
  double sum = 0;
#pragma omp parallel reduction(+ : sum)
  {
    const int team = omp_get_num_threads();
#pragma omp single
    threads = team;
    for (int r = 0; r < ROUNDS; ++r) {
      int order;
#pragma omp critical(hold)
      {
        order = ticket++ % team;
        sum += wall_spin(UNIT) > -1 ? 1 : 0;
      }
      sum += wall_spin((team - 1 - order) * UNIT) > -1 ? 0 : 1;
    }
  }
  printf("threads %d, entries %.0f\n", threads, sum);
  return 0;
}

/* Findings stand-in, the serial part of a threaded run: SERIAL seconds of
 * work on the master thread alone, then a balanced parallel region where
 * every thread works PARALLEL seconds. The team's other T - 1 threads idle
 * through the serial part: it costs SERIAL * (T - 1) by construction (2 threads: 0.4 s). */
#include <omp.h>
#include <stdio.h>

#include "wall_spin.h"

#define SERIAL 0.4
#define PARALLEL 0.2

static double setup(void) { return wall_spin(SERIAL); }

int main(void) {
  double x = setup(), y = 0;
  int threads = 0;
#pragma omp parallel reduction(+ : y)
  {
#pragma omp single
    threads = omp_get_num_threads();
    y += wall_spin(PARALLEL);
  }
  printf("threads %d, %d\n", threads, x + y > -1);
  return 0;
}

/* For the findings stand-ins: keep the CPU busy until a span of wall time
 * has passed. The costs the stand-ins construct are waits of one thread or
 * rank for another (a barrier, a critical section, a message), and a wait
 * lasts as long as the other's work in wall time: spinning to a wall-clock
 * deadline makes that span exact however the threads share the cores, and
 * keeps the work on the CPU (a sleep would be time off the CPU, a finding
 * of its own). */
#ifndef HCC_FINDINGS_WALL_SPIN_H
#define HCC_FINDINGS_WALL_SPIN_H

#include <time.h>

static double wall_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Spins for `seconds` of wall time; returns a value the caller prints so the
 * loop is not optimised away. */
static double wall_spin(double seconds) {
  const double end = wall_now() + seconds;
  double x = 0;
  while (wall_now() < end)
    for (int i = 0; i < 1000; ++i) x += (double)(i % 7) * 1e-9;
  return x;
}

#endif

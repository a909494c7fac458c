/* Compiled WITHOUT hcc: only sampling can see these functions. They burn CPU
 * for a number of iterations; the clock helpers let the program report how
 * long each part took (wall, CPU), to compare with the time sampling gives. */
#include <time.h>

volatile double spin_sink;

__attribute__((noinline)) double spin_inner(long n) {
  double x = 0;
  for (long i = 0; i < n; ++i) x += (double)(i & 7) * 0.5;
  spin_sink = x;
  return x;
}

__attribute__((noinline)) double spin_outer(long n) { return spin_inner(n) + 1.0; }

__attribute__((noinline)) double spin_direct(long n) {
  double x = 1;
  for (long i = 0; i < n; ++i) x += (double)(i & 3) * 0.25;
  spin_sink = x;
  return x;
}

double wall_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The calling thread's CPU time: what sampling counts (its timer runs on
 * CLOCK_THREAD_CPUTIME_ID), whatever else runs on the machine. */
double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

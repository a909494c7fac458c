/* Compiled WITHOUT hcc: only sampling can see these functions. Each one
 * burns a given amount of the calling thread's CPU time (tests/support/
 * cpu_spin.h), not a number of iterations: a test that needs N samples gets
 * the CPU time for them however busy the machine is. The clock helpers let the program report how long each part took (wall,
 * CPU), to compare with the time sampling gives. */
#include <time.h>

#include "../../support/cpu_spin.h"

volatile double spin_sink;

/* Iterations between two looks at the clock: well under a millisecond. */
#define SPIN_CHUNK (1L << 18)

double wall_seconds(void) {
  double t;
  HCC_SPIN_READ_(CLOCK_MONOTONIC, t);
  return t;
}

/* The calling thread's CPU time: what sampling counts (its timer runs on
 * CLOCK_THREAD_CPUTIME_ID), whatever else runs on the machine. */
double cpu_seconds(void) {
  double t;
  HCC_SPIN_READ_(CLOCK_THREAD_CPUTIME_ID, t);
  return t;
}

__attribute__((noinline)) double spin_inner(double cpu) {
  double x = 0;
  HCC_SPIN_CPU("spin_inner", cpu, for (long i = 0; i < SPIN_CHUNK; ++i) x += (double)(i & 7) * 0.5);
  spin_sink = x;
  return x;
}

__attribute__((noinline)) double spin_outer(double cpu) { return spin_inner(cpu) + 1.0; }

__attribute__((noinline)) double spin_direct(double cpu) {
  double x = 1;
  HCC_SPIN_CPU("spin_direct", cpu, for (long i = 0; i < SPIN_CHUNK; ++i) x += (double)(i & 3) * 0.25);
  spin_sink = x;
  return x;
}

/* Calls f(n) until the thread has used `cpu` seconds: for code that cannot
 * read the clock itself (nocfi.S). */
__attribute__((noinline)) void spin_calls(void (*f)(long), long n, double cpu) { HCC_SPIN_CPU("spin_calls", cpu, f(n)); }

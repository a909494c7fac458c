/* The recursion stand-in of pair_floor.sh: fib(N) by plain recursion, so
 * every call but the outermost is folded (runtime/core/fold.hpp) and its
 * pair runs in recursion mode's lane. fib(35) makes 2*fib(36)-1 = 29,860,703
 * calls. The recursive calls go through a volatile pointer so the compiler
 * cannot turn one of them into a loop in the plain build (the instrumented
 * one could not): both builds make the same calls. Prints the result only:
 * plain and instrumented builds must print the same. */
#include <stdio.h>
#include <stdlib.h>

#include "pair_clock.h"

static unsigned long long calls;
long fib(int n);
static long (*volatile fib_p)(int) = fib;

__attribute__((noinline)) long fib(int n) {
  PAIR_RDTSC_READ(); /* nothing unless built with -DPAIR_RDTSC (pair_clock.h) */
  ++calls;
  long r = n < 2 ? n : fib_p(n - 1) + fib_p(n - 2);
  PAIR_RDTSC_READ();
  return r;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 35;
  const long long t0 = PAIR_CPU_NS();
  long r = fib_p(n);
  PAIR_REPORT(calls, PAIR_CPU_NS() - t0);
  printf("%ld\n", r);
  return 0;
}

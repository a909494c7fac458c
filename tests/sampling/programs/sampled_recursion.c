/* Recursion only sampling sees (built with --hcc-functions=none): rec()
 * descends 40 levels and burns 0.3 s of the thread's CPU at the bottom,
 * ping() and pong() call each other 30 levels deep and burn 0.2 s there.
 * Folded like instrumented recursion, the samples make main/rec and
 * main/ping/pong, not one path per level. The results are used after each
 * call, so no call is a tail call. */
#include <stdio.h>

#include "../../support/cpu_spin.h"

volatile double sink;

__attribute__((noinline)) int rec(int n) {
  if (n == 0) {
    double x = 0;
    HCC_SPIN_CPU("rec", 0.3, for (long i = 0; i < (1L << 18); ++i) x += (double)(i & 7) * 0.5);
    sink = x;
    return 0;
  }
  int r = rec(n - 1);
  sink = sink + r;
  return r + 1;
}

int pong(int n);

__attribute__((noinline)) int ping(int n) {
  int r = pong(n - 1);
  sink = sink + r;
  return r + 1;
}

__attribute__((noinline)) int pong(int n) {
  if (n <= 0) {
    double x = 1;
    HCC_SPIN_CPU("pong", 0.2, for (long i = 0; i < (1L << 18); ++i) x += (double)(i & 3) * 0.25);
    sink = x;
    return 0;
  }
  int r = ping(n - 1);
  sink = sink + r;
  return r + 1;
}

int main(void) {
  int a = rec(40);
  int b = ping(30);
  printf("%d %d\n", a, b);
  return 0;
}

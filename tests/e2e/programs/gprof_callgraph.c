/* The gprof view's reference program (tests/e2e/gprof_e2e_test.cpp): main
 * calls foo and bar 20 times each, both call leaf, via calls bar once
 * through a pointer, rec(9) recurses nine times. foo does twice bar's work
 * in its own body, so its self time is about 40/21 of bar's. */
#include <stdio.h>

#include "../../support/cpu_spin.h"

volatile double sink;

/* Own work per call in the thread's CPU time (tests/support/cpu_spin.h):
 * foo's is exactly twice bar's whatever the core's speed, and bar's 21
 * calls add up to 0.21 s, enough time slices that the waits for a core on a
 * busy machine, which land in whichever function runs, leave the ratio of
 * their wall-clock self times within the test's band. */
#define UNIT 0.01
#define SPIN(units) HCC_SPIN_CPU(__func__, (units) * UNIT, for (long i = 0; i < 65536; ++i) sink += (double)i * 0.5)

void leaf(void) { SPIN(0.25); }
void foo(void) { SPIN(2); leaf(); }
void bar(void) { SPIN(1); leaf(); }
void via(void (*f)(void)) { f(); }
int rec(int n) { return n == 0 ? 0 : 1 + rec(n - 1); }

int main(void) {
  for (int i = 0; i < 20; ++i) {
    foo();
    bar();
  }
  via(bar);
  printf("rec %d sink %s\n", rec(9), sink > 0 ? "positive" : "zero");
  return 0;
}

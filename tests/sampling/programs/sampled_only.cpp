// A plain serial C++ program, built with --hcc-functions=none: no region is
// ever entered, so only sampling can see it. heavy() burns 0.4 s of the
// thread's CPU, light() 0.2 s (amounts of CPU, not of wall time:
// tests/support/cpu_spin.h), both called from main.
#include <cstdio>

#include "../../support/cpu_spin.h"

volatile double sink;

__attribute__((noinline)) void heavy() {
  double x = 0;
  HCC_SPIN_CPU("heavy", 0.4, for (long i = 0; i < (1L << 18); ++i) x += double(i & 7) * 0.5);
  sink = x;
}

__attribute__((noinline)) void light() {
  double x = 1;
  HCC_SPIN_CPU("light", 0.2, for (long i = 0; i < (1L << 18); ++i) x += double(i & 3) * 0.25);
  sink = x;
}

int main() {
  heavy();
  light();
  std::printf("done\n");
  return 0;
}

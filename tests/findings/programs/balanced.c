/* Findings stand-in, a balanced and well-behaved program: three kernels of
 * plain arithmetic, a fifth of a second of CPU each per step, no I/O but
 * the last line, no allocation, no threads. It has nothing to find: no
 * finding above 2% of the run, with sampling on and off. */
#include <stdio.h>

#include "../../support/cpu_spin.h"

static double kernel_a(double x) {
  HCC_SPIN_CPU("kernel_a", 0.2, for (int i = 0; i < 100000; ++i) x += (double)(i % 7) * 1e-9);
  return x;
}
static double kernel_b(double x) {
  HCC_SPIN_CPU("kernel_b", 0.2, for (int i = 0; i < 100000; ++i) x += (double)(i % 5) * 1e-9);
  return x;
}
static double kernel_c(double x) {
  HCC_SPIN_CPU("kernel_c", 0.2, for (int i = 0; i < 100000; ++i) x += (double)(i % 3) * 1e-9);
  return x;
}

int main(void) {
  double x = 0;
  for (int step = 0; step < 3; ++step) x = kernel_c(kernel_b(kernel_a(x)));
  printf("%d\n", x > 0);
  return 0;
}

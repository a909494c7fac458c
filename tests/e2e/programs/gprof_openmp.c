/* The gprof view of an OpenMP program (tests/e2e/gprof_e2e_test.cpp): kernel
 * runs a parallel loop of 8 work() calls, five times. */
#include <stdio.h>
volatile double sink;
void work(int n) { for (int i = 0; i < n; ++i) sink += i * 0.5; }
void kernel(void) {
#pragma omp parallel for
  for (int i = 0; i < 8; ++i) work(200000);
}
int main(void) { for (int k = 0; k < 5; ++k) kernel(); printf("done\n"); return 0; }

/* XSBench-like: many independent lookups in a table, in an OpenMP loop. */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define N 4096

static double table[N];

static void fill(void) {
  for (int i = 0; i < N; ++i) table[i] = (double)((i * 37) % 101);
}

/* `steps` is a parameter, as a real code's nuclide count is: a loop of a
 * constant 64 steps would be a bounded leaf to --hcc-functions=auto, left
 * out, and this test checks lookup's visits. */
static long lookup(long seed, int steps) {
  long s = 0;
  for (int k = 0; k < steps; ++k) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    s += (long)table[seed % N];
  }
  return s;
}

int main(void) {
  fill();
  long verification = 0;
#pragma omp parallel for reduction(+ : verification)
  for (long i = 0; i < 1000; ++i) verification += lookup(i, 64);
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  printf("threads=%d verification=%ld\n", threads, verification);
  return 0;
}

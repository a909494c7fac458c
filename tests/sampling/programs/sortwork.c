/* Compiled WITHOUT hcc: a CPU-bound library call (qsort over a shuffled
 * array) that only sampling can see. blocking.c measures the CPU time it
 * takes itself. */
#include <stdlib.h>

static int compare_ints(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Sorts `n` pseudo-random ints; returns a checksum so nothing is optimised away. */
__attribute__((noinline)) long sort_block(int *v, int n, unsigned seed) {
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    v[i] = (int)(seed >> 1);
  }
  qsort(v, (size_t)n, sizeof *v, compare_ints);
  return (long)v[0] + v[n / 2] + v[n - 1];
}

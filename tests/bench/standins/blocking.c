/* Stand-in for a code that alternates CPU work in an uninstrumented library
 * with blocking waits: each round sorts a block with the C library's qsort
 * (its comparator, a tiny function of this file, is left out by
 * --hcc-functions=auto) and then blocks 3 ms in poll(), as a code waiting on
 * I/O or a message would. The number of rounds is fixed, so the CPU work is
 * the same on every run; the waits add wall time, not CPU time.
 *
 *   blocking [rounds block_size]   (default 150 80000)
 *
 * Prints a checksum of the sorted blocks; the same on every run. */
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int compare_ints(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Fills v with a pseudo-random block (seeded by `round`), sorts it and
 * returns a position-weighted sum of the result. */
uint64_t sort_block(int *v, int n, unsigned round) {
  uint32_t s = 2463534242u ^ (round * 2654435761u);
  for (int i = 0; i < n; ++i) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    v[i] = (int)(s >> 1);
  }
  qsort(v, (size_t)n, sizeof *v, compare_ints);
  uint64_t sum = 0;
  for (int i = 0; i < n; i += 97) sum += (uint64_t)v[i] * (uint64_t)(i + 1);
  return sum;
}

uint64_t rounds(int *v, int n, int count) {
  uint64_t sum = 0;
  for (int r = 0; r < count; ++r) {
    sum += sort_block(v, n, (unsigned)r);
    poll(NULL, 0, 3);
  }
  return sum;
}

int main(int argc, char **argv) {
  const int count = argc > 1 ? atoi(argv[1]) : 150;
  const int n = argc > 2 ? atoi(argv[2]) : 80000;
  if (count < 1 || n < 1) {
    fprintf(stderr, "usage: blocking [rounds>0 block_size>0]\n");
    return 2;
  }
  int *v = malloc(sizeof(int) * (size_t)n);
  if (!v) {
    fprintf(stderr, "blocking: out of memory for %d ints\n", n);
    return 1;
  }
  printf("blocking rounds=%d n=%d checksum %llu\n", count, n, (unsigned long long)rounds(v, n, count));
  free(v);
  return 0;
}

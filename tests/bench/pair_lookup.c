/* The memory-bound stand-in of pair_floor.sh: CALLS lookups of a small
 * function at random places of a table of KIB kibibytes.
 *   pair_lookup 524288   random reads over 512 MiB (16 times this machine's
 *                        32 MiB L3): nearly every call misses the cache, and
 *                        the program's own reads evict the runtime's lines
 *   pair_lookup 16       the same calls over 16 KiB: every read hits L1
 * The call count is the same for every size (30 million, or the second
 * argument), so the pair's cost is compared per call. The indices come from
 * an xorshift generator in main, independent of the loaded values, so the
 * plain build overlaps its cache misses as an out-of-order core does; the
 * instrumented build pays its pair between them. Prints the checksum only:
 * plain and instrumented builds must print the same. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pair_clock.h"

__attribute__((noinline)) uint64_t lookup(const uint64_t *table, uint64_t mask, uint64_t key) {
  PAIR_RDTSC_READ(); /* nothing unless built with -DPAIR_RDTSC (pair_clock.h) */
  uint64_t r = table[key & mask] * 0x9E3779B97F4A7C15ull + key;
  PAIR_RDTSC_READ();
  return r;
}

int main(int argc, char **argv) {
  const uint64_t kib = argc > 1 ? strtoull(argv[1], NULL, 10) : 524288;
  const uint64_t calls = argc > 2 ? strtoull(argv[2], NULL, 10) : 30000000;
  uint64_t n = kib * 1024 / sizeof(uint64_t);
  if (n == 0 || (n & (n - 1))) {
    fprintf(stderr, "pair_lookup: the table size (%llu KiB) must be a power of two\n", (unsigned long long)kib);
    return 2;
  }
  uint64_t *table = malloc(n * sizeof *table);
  if (!table) {
    fprintf(stderr, "pair_lookup: cannot allocate %llu KiB\n", (unsigned long long)kib);
    return 1;
  }
  for (uint64_t i = 0; i < n; ++i) table[i] = i * 2654435761u;
  uint64_t x = 88172645463325252ull, sum = 0;
  const long long t0 = PAIR_CPU_NS();
  for (uint64_t i = 0; i < calls; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    sum += lookup(table, n - 1, x);
  }
  PAIR_REPORT(calls, PAIR_CPU_NS() - t0);
  printf("%llu\n", (unsigned long long)sum);
  free(table);
  return 0;
}

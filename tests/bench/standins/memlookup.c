/* Stand-in for a memory-bound lookup code: 3e7 calls of a small probing
 * function into a hash table far larger than the last-level cache (256 MiB
 * by default; the development machine's L3 is 32 MiB), so nearly every call
 * misses the cache. The function has a loop (it probes up to 4 slots), so
 * --hcc-functions=auto times every call; the pair's own cache lines compete
 * with the table's.
 *
 *   memlookup [calls table_MiB]   (default 30000000 256)
 *
 * Prints a checksum; the same on every run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ull;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dull;
  x ^= x >> 33;
  return x;
}

struct slot {
  uint64_t key, value;
};

/* guard_shapes.c compiles this file with a guard declaration of its own at
 * the top of lookup; here it is nothing. */
#ifndef MEMLOOKUP_GUARD
#define MEMLOOKUP_GUARD
#endif

/* The value stored under `key`, or 0 when it is not within 4 slots of its
 * home slot (linear probing; the main loop counts those). */
uint64_t lookup(const struct slot *table, uint64_t mask, uint64_t key) {
  MEMLOOKUP_GUARD
  uint64_t s = mix(key) & mask;
  for (int probe = 0; probe < 4; ++probe, s = (s + 1) & mask)
    if (table[s].key == key) return table[s].value;
  return 0;
}

int main(int argc, char **argv) {
  const long calls = argc > 1 ? atol(argv[1]) : 30000000L;
  const long mib = argc > 2 ? atol(argv[2]) : 256;
  if (calls < 1 || mib < 1) {
    fprintf(stderr, "usage: memlookup [calls>0 table_MiB>0]\n");
    return 2;
  }
  /* A power of two slots of 16 bytes. */
  uint64_t slots = 1;
  while (slots * 2 * sizeof(struct slot) <= (uint64_t)mib << 20) slots *= 2;
  const uint64_t mask = slots - 1;
  struct slot *table = calloc(slots, sizeof(struct slot));
  if (!table) {
    fprintf(stderr, "memlookup: out of memory for a %ld MiB table\n", mib);
    return 1;
  }
  /* Half full: key k (1..slots/2) at the first free slot from its home. */
  const uint64_t stored = slots / 2;
  for (uint64_t k = 1; k <= stored; ++k) {
    uint64_t s = mix(k) & mask;
    while (table[s].key) s = (s + 1) & mask;
    table[s].key = k;
    table[s].value = k * 2654435761u;
  }
  uint64_t sum = 0, missing = 0;
  for (long i = 0; i < calls; ++i) {
    const uint64_t key = 1 + mix((uint64_t)i + 12345) % stored;
    const uint64_t v = lookup(table, mask, key);
    if (v == 0) ++missing;  /* probed past 4 slots: counted, not an error */
    sum += v;
  }
  printf("memlookup calls=%ld slots=%llu checksum %llu beyond_4_probes %llu\n", calls, (unsigned long long)slots,
         (unsigned long long)sum, (unsigned long long)missing);
  free(table);
  return 0;
}

/* What a function whose guard calls were made nops (a stopped count,
 * runtime/core/site_patch.hpp) still costs, by the shape of the code the
 * compiler had to make around the calls. The memory-bound lookup of
 * standins/memlookup.c (a 4-slot probe into a 256 MiB hash table, 3e7 calls),
 * its function in one of four shapes (-DSHAPE=N), none calling any runtime:
 *   0  plain
 *   1  nops with a call's clobbers: the two guard calls of inject.h as a
 *      stopped function runs them (a 5-byte nop each), the compiler having
 *      assumed every caller-saved register lost at each: the arguments moved
 *      to callee-saved registers, pushed and popped, the descriptor kept on
 *      the stack for the exit
 *   2  nops that clobber nothing: the same nops, where the compiler was told
 *      no register changes (a guard that keeps every register)
 *   3  a kept-register guard with the test inline: the descriptor's id is
 *      compared (stopped or excluded: no call), else a static function is
 *      called whose clobbers the compiler knows (-fipa-ra: only %rax and the
 *      vector registers); the exit is called when the enter was. Here the
 *      descriptor is stopped, so neither call is made.
 *   guard_shapes [calls table_MiB]   (default 30000000 256)
 * Prints the checksum: the same for every shape. tests/bench/guard_shapes.sh
 * times them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct desc {
  const char *name, *mangled, *file;
  int line, end_line;
  int pad;
  uint32_t id; /* at offset 36, as hcc_region_desc's */
};
static struct desc d = {"lookup", "lookup", "guard_shapes.c", 0, 0, 0, 0xC0000000u}; /* stopped */

#define NOP5 ".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n\t"
#define VECTORS                                                                                            \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", \
      "xmm13", "xmm14", "xmm15"
#define CALL_CLOBBERS "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "memory", VECTORS

#if SHAPE == 1
static inline void enter_nop(struct desc *r) { __asm__ volatile(NOP5 : "+D"(r) : : CALL_CLOBBERS); }
static inline void exit_nop(struct desc **r) { __asm__ volatile(NOP5 : "+D"(r) : : CALL_CLOBBERS); }
#define GUARD struct desc *g __attribute__((cleanup(exit_nop), unused)) = (enter_nop(&d), &d)
#elif SHAPE == 2
static inline void enter_nop(struct desc *r) { __asm__ volatile(NOP5 : : "D"(r) : "memory"); }
static inline void exit_nop(char *r) {
  (void)r;
  __asm__ volatile(NOP5 : : : "memory");
}
#define GUARD char g __attribute__((cleanup(exit_nop), unused)) = (enter_nop(&d), 0)
#elif SHAPE == 3
/* The stub keeps every general register but %rax; never reached here. */
__asm__(".text\n.p2align 4\nguard_shapes_stub:\n\txorl %eax, %eax\n\tret\n");
static __attribute__((noinline)) struct desc *enter_kept(struct desc *r) {
  struct desc *entered;
  __asm__ volatile("call guard_shapes_stub" : "=a"(entered) : "D"(r) : "memory", VECTORS);
  return entered;
}
static __attribute__((noinline)) void exit_kept(struct desc *r) {
  __asm__ volatile("call guard_shapes_stub" : : "D"(r) : "rax", "memory", VECTORS);
}
static inline struct desc *enter_test(struct desc *r) {
  if (__atomic_load_n(&r->id, __ATOMIC_RELAXED) >= 0xC0000000u) return 0;
  return enter_kept(r);
}
static inline void exit_test(struct desc **r) {
  if (*r) exit_kept(*r);
}
#define GUARD struct desc *g __attribute__((cleanup(exit_test), unused)) = enter_test(&d)
#else
#define GUARD
#endif

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

__attribute__((noinline)) uint64_t lookup(const struct slot *table, uint64_t mask, uint64_t key) {
  GUARD;
  uint64_t s = mix(key) & mask;
  for (int probe = 0; probe < 4; ++probe, s = (s + 1) & mask)
    if (table[s].key == key) return table[s].value;
  return 0;
}

int main(int argc, char **argv) {
  const long calls = argc > 1 ? atol(argv[1]) : 30000000L;
  const long mib = argc > 2 ? atol(argv[2]) : 256;
  if (calls < 1 || mib < 1) {
    fprintf(stderr, "usage: guard_shapes [calls>0 table_MiB>0]\n");
    return 2;
  }
  uint64_t slots = 1;
  while (slots * 2 * sizeof(struct slot) <= (uint64_t)mib << 20) slots *= 2;
  const uint64_t mask = slots - 1;
  struct slot *table = calloc(slots, sizeof(struct slot));
  if (!table) {
    fprintf(stderr, "guard_shapes: out of memory for a %ld MiB table\n", mib);
    return 1;
  }
  const uint64_t stored = slots / 2;
  for (uint64_t k = 1; k <= stored; ++k) {
    uint64_t s = mix(k) & mask;
    while (table[s].key) s = (s + 1) & mask;
    table[s].key = k;
    table[s].value = k * 2654435761u;
  }
  uint64_t sum = 0, missing = 0;
  for (long i = 0; i < calls; ++i) {
    const uint64_t v = lookup(table, mask, 1 + mix((uint64_t)i + 12345) % stored);
    missing += v == 0;
    sum += v;
  }
  printf("guard_shapes checksum %llu beyond_4_probes %llu\n", (unsigned long long)sum, (unsigned long long)missing);
  free(table);
  return 0;
}

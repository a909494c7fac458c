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
 * The program is memlookup.c's, included with the guard as MEMLOOKUP_GUARD.
 * Prints its checksum: the same for every shape. tests/bench/guard_shapes.sh
 * times them. */
#include <stdint.h>

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

#define MEMLOOKUP_GUARD GUARD;
#include "standins/memlookup.c"

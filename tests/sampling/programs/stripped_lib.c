/* Built as a shared library and stripped (strip --strip-all): its exported
 * entry keeps a name in .dynsym, its static helper has none, so only the
 * library's file name and an offset can name a sample in it. */
#include "../../support/cpu_spin.h"

volatile double stripped_sink;

static __attribute__((noinline)) void burn_unnamed(double cpu) {
  double x = 0;
  HCC_SPIN_CPU("burn_unnamed", cpu, for (long i = 0; i < (1L << 18); ++i) x += (double)(i & 7) * 0.5);
  stripped_sink = x;
}

void stripped_entry(double cpu) {
  burn_unnamed(cpu);
  stripped_sink += 1.0;
}

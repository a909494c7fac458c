/* Built plainly (not instrumented): an exit handler that burns 0.1 s of the
 * thread's CPU time after main returned (exit_work.c). */
#include <stdlib.h>

#include "../../support/cpu_spin.h"

volatile double exit_sink;

static void work_at_exit(void) {
  double x = 0;
  HCC_SPIN_CPU("work_at_exit", 0.1, for (long i = 0; i < (1L << 18); ++i) x += (double)(i & 7) * 0.5);
  exit_sink = x;
}

void register_exit_work(void) { atexit(work_at_exit); }

/* A stand-in for libhcc.so in the driver tests: the real runtime is built
 * elsewhere, and the driver's job is only to link *a* libhcc so that the
 * instrumented program finds it at run time. It counts events and reports
 * them at exit, which proves the calls arrive. */
#include <stdio.h>

#include "hcc/region.h"

static int enters, exits;

void hcc_enter(hcc_region_desc *region) {
  (void)region;
  ++enters;
}

void hcc_exit(hcc_region_desc *region) {
  (void)region;
  ++exits;
}

void hcc_setjmp_mark(const void *env) { (void)env; }

__attribute__((destructor)) static void hcc_stub_report(void) {
  fprintf(stderr, "hcc-stub: enters=%d exits=%d\n", enters, exits);
}

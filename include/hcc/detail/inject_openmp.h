/* hcc — the second prelude: `hcc` force-includes it after inject.h when a
 * rewritten source (or an instrumented header copy) calls the POMP2
 * interface, so only objects with OpenMP code carry the OpenMP declarations
 * and trampolines. Like inject.h it includes no system header. */
#ifndef HCC_DETAIL_INJECT_OPENMP_H
#define HCC_DETAIL_INJECT_OPENMP_H
#ifndef __ASSEMBLER__
#include "../pomp2.h"
#endif
#endif /* HCC_DETAIL_INJECT_OPENMP_H */

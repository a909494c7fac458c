/* hcc — OpenMP lock calls in instrumented code, measured. The instrumentor
 * rewrites `omp_set_lock(&l)` to `(0 ? omp_set_lock : hcc_omp_set_lock)(&l)`
 * (insertions only, so no line moves and the original name stays in the
 * text); the compiler folds the conditional to the wrapper, which calls the
 * POMP2 lock wrapper in libhcc (timed region "omp_set_lock", role lock).
 * Included by inject.h only when compiling with OpenMP. */
#ifndef HCC_DETAIL_OMP_LOCKS_H
#define HCC_DETAIL_OMP_LOCKS_H
#include <omp.h>
#include "../pomp2.h"

static __inline__ void hcc_omp_set_lock(omp_lock_t *l) { POMP2_Set_lock((void *)l); }
static __inline__ void hcc_omp_unset_lock(omp_lock_t *l) { POMP2_Unset_lock((void *)l); }
static __inline__ int hcc_omp_test_lock(omp_lock_t *l) { return POMP2_Test_lock((void *)l); }
static __inline__ void hcc_omp_set_nest_lock(omp_nest_lock_t *l) { POMP2_Set_nest_lock((void *)l); }
static __inline__ void hcc_omp_unset_nest_lock(omp_nest_lock_t *l) { POMP2_Unset_nest_lock((void *)l); }
static __inline__ int hcc_omp_test_nest_lock(omp_nest_lock_t *l) { return POMP2_Test_nest_lock((void *)l); }
#endif

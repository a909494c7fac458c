/* hcc — the region descriptor and the two hot-path entry points.
 *
 * This is the ABI between code that the instrumentor writes and libhcc.
 * Every instrumented region has exactly one static descriptor; the runtime
 * fills in `id` the first time the region is entered, so later events cost
 * one load and one compare to find the region. Keep this struct layout
 * stable: objects compiled against an older header must keep working. */
#ifndef HCC_REGION_H
#define HCC_REGION_H

#include "detail/int_types.h"

/* Empty unless hcc's prelude binds the calls itself (detail/bind.h). */
#ifndef HCC_BIND_
#define HCC_BIND_(name)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* What a region is; becomes the CUBE `role`/`paradigm` of the region. */
enum hcc_region_kind {
  HCC_KIND_FUNCTION = 0,
  HCC_KIND_USER = 1,     /* manual region (API, macro, pragma) */
  HCC_KIND_LOOP = 2,     /* selected loop */
  HCC_KIND_ARTIFICIAL = 3, /* made by the runtime, e.g. depth-limit marker */
  HCC_KIND_OPENMP = 4,   /* reserved for the POMP2 layer */
  HCC_KIND_MPI = 5,      /* reserved for the PMPI wrappers */
  HCC_KIND_SAMPLED = 6,  /* a function found by sampling (HCC_SAMPLING), made by the runtime */
  /* OpenMP constructs as the POMP2 layer (pomp/) records them: paradigm
   * "openmp", the role named after each (CUBE/Score-P role names). */
  HCC_KIND_OMP_PARALLEL = 16,
  HCC_KIND_OMP_LOOP = 17,
  HCC_KIND_OMP_SECTIONS = 18,
  HCC_KIND_OMP_SECTION = 19,
  HCC_KIND_OMP_SINGLE = 20,
  HCC_KIND_OMP_SINGLE_SBLOCK = 21,
  HCC_KIND_OMP_MASTER = 22,
  HCC_KIND_OMP_CRITICAL = 23,
  HCC_KIND_OMP_CRITICAL_SBLOCK = 24,
  HCC_KIND_OMP_ATOMIC = 25,
  HCC_KIND_OMP_BARRIER = 26,
  HCC_KIND_OMP_IMPLICIT_BARRIER = 27,
  HCC_KIND_OMP_FLUSH = 28,
  HCC_KIND_OMP_ORDERED = 29,
  HCC_KIND_OMP_ORDERED_SBLOCK = 30,
  HCC_KIND_OMP_TASK = 31,
  HCC_KIND_OMP_TASK_CREATE = 32,
  HCC_KIND_OMP_TASKWAIT = 33,
  HCC_KIND_OMP_LOCK = 34,       /* omp_*_lock calls */
  HCC_KIND_OMP_WORKSHARE = 35,
  HCC_KIND_OMP_TASKGROUP = 36
};

typedef struct hcc_region_desc {
  const char *name;     /* readable name, e.g. "fib", "ns::A::f(int) const" */
  const char *mangled;  /* linker name, or NULL */
  const char *file;     /* source file as the compiler saw it */
  HCC_I32_ begin_line;
  HCC_I32_ end_line;
  HCC_I32_ kind;         /* enum hcc_region_kind */
  HCC_U32_ id;          /* 0 = not yet registered; HCC_REGION_EXCLUDED; else region id + 1 */
} hcc_region_desc;

/* The id of a region that is not recorded (a run-time filter excluded it
 * when it registered, or HCC_THROTTLE disabled it). The function guards test
 * for it before calling the runtime, so such a region costs a load and a
 * branch per enter and per exit: inline, or on x86-64 ELF inside a call of
 * the object's own (bind.h), which adds a direct call and return each;
 * hcc_enter/hcc_exit test for it too (older objects). */
#define HCC_REGION_EXCLUDED 0xFFFFFFFFu

/* Enter/exit one region on the calling thread. `exit` must name the same
 * descriptor as the matching `enter`; the runtime repairs the shadow stack
 * when exits were skipped (longjmp), see runtime/core/README.md. */
void hcc_enter(hcc_region_desc *region) HCC_BIND_(hcc_enter);
void hcc_exit(hcc_region_desc *region) HCC_BIND_(hcc_exit);

/* Count mode: enter/exit one region whose visits are counted on its call
 * path exactly but which reads no clock. Its frame keeps its place in the
 * call path (children hang below it); its time is the CPU time of its
 * samples, out of its caller's (0 of its own without sampling). The instrumentor calls
 * these for functions a filter names with COUNT or --hcc-functions=count:
 * (runtime/core/README.md, "Count mode"). Additive: objects that do not
 * call them are unchanged; one that does needs a runtime that has them
 * (bind.h names a missing entry point at its first call). */
void hcc_count_enter(hcc_region_desc *region) HCC_BIND_(hcc_count_enter);
void hcc_count_exit(hcc_region_desc *region) HCC_BIND_(hcc_count_exit);
/* Count mode for a function that calls nothing (no call, no constructor or
 * destructor that runs code): its enter and exit as one call, made where the
 * enter would be. The same visits and call path; samples landing in it count
 * on its caller, as its time does. */
void hcc_count_visit(hcc_region_desc *region) HCC_BIND_(hcc_count_visit);

/* Called by instrumented code just before setjmp/sigsetjmp so a later
 * longjmp to `env` can unwind the shadow stack to the right depth. */
void hcc_setjmp_mark(const void *env) HCC_BIND_(hcc_setjmp_mark);

#ifdef __cplusplus
}
#endif

#endif /* HCC_REGION_H */

// pomp — POMP2 lock wrappers. libhcc uses no OpenMP itself (it must work
// with libgomp and libomp alike, and OPARI2's runtime that used OpenMP
// internally crashed after omp_pause_resource): the real omp_* lock
// functions are looked up in the program's OpenMP runtime, once each.
#include <dlfcn.h>

#include "hcc/region.h"

#define POMP_API extern "C" __attribute__((visibility("default")))

namespace {

using VoidFn = void (*)(void *);
using IntFn = int (*)(void *);

template <class F>
F real(const char *name) {
  return reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
}

#define HCC_LOCK_DESC(var, text) \
  hcc_region_desc var = {text, nullptr, "", 0, 0, HCC_KIND_OMP_LOCK, 0}
HCC_LOCK_DESC(g_set, "omp_set_lock");
HCC_LOCK_DESC(g_unset, "omp_unset_lock");
HCC_LOCK_DESC(g_test, "omp_test_lock");
HCC_LOCK_DESC(g_set_nest, "omp_set_nest_lock");
HCC_LOCK_DESC(g_unset_nest, "omp_unset_nest_lock");
HCC_LOCK_DESC(g_test_nest, "omp_test_nest_lock");

// `f` (looked up once, thread-safe static init) between enter/exit of `d`;
// d null: untimed (init/destroy).
void timed(VoidFn f, void *lock, hcc_region_desc *d) {
  if (!f) return;
  if (d) hcc_enter(d);
  f(lock);
  if (d) hcc_exit(d);
}
int timed_int(IntFn f, void *lock, hcc_region_desc *d) {
  if (!f) return 0;
  hcc_enter(d);
  int r = f(lock);
  hcc_exit(d);
  return r;
}

}  // namespace

#define HCC_VOID_WRAPPER(api, name, desc)                  \
  POMP_API void api(void *l) {                             \
    static const VoidFn f = real<VoidFn>(name);            \
    timed(f, l, desc);                                     \
  }
#define HCC_INT_WRAPPER(api, name, desc)                   \
  POMP_API int api(void *l) {                              \
    static const IntFn f = real<IntFn>(name);              \
    return timed_int(f, l, desc);                          \
  }

HCC_VOID_WRAPPER(POMP2_Init_lock, "omp_init_lock", nullptr)
HCC_VOID_WRAPPER(POMP2_Destroy_lock, "omp_destroy_lock", nullptr)
HCC_VOID_WRAPPER(POMP2_Set_lock, "omp_set_lock", &g_set)
HCC_VOID_WRAPPER(POMP2_Unset_lock, "omp_unset_lock", &g_unset)
HCC_INT_WRAPPER(POMP2_Test_lock, "omp_test_lock", &g_test)
HCC_VOID_WRAPPER(POMP2_Init_nest_lock, "omp_init_nest_lock", nullptr)
HCC_VOID_WRAPPER(POMP2_Destroy_nest_lock, "omp_destroy_nest_lock", nullptr)
HCC_VOID_WRAPPER(POMP2_Set_nest_lock, "omp_set_nest_lock", &g_set_nest)
HCC_VOID_WRAPPER(POMP2_Unset_nest_lock, "omp_unset_nest_lock", &g_unset_nest)
HCC_INT_WRAPPER(POMP2_Test_nest_lock, "omp_test_nest_lock", &g_test_nest)

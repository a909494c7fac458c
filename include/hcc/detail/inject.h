/* hcc — prelude that `hcc` force-includes (-include) into every source it
 * instruments. It declares the guard the instrumentor puts at the top of each
 * function body. Nothing here is meant to be written by users.
 *
 * The instrumentor writes, on the same line as a body's opening brace:
 *   static hcc_region_desc __hcc_rd7 = {"name", "mangled", "file.c", 10, 20, 0, 0};
 *   HCC_FUNCTION_GUARD_(__hcc_g7, &__hcc_rd7);
 * so line numbers of the user's file never move. Names carry a per-file
 * counter so a lambda inside a function does not shadow its parent's guard
 * (-Wshadow -Werror builds must keep building). */
#ifndef HCC_DETAIL_INJECT_H
#define HCC_DETAIL_INJECT_H
/* -include also reaches .S files compiled in the same command. */
#ifndef __ASSEMBLER__

/* Tells <hcc/hcc.h> that this build is instrumented, so its macros call the
 * runtime; the declarations serve the calls the instrumentor writes for
 * region pragmas. */
#ifndef HCC_INSTRUMENTED
#define HCC_INSTRUMENTED 1
#endif
/* First: the runtime calls bind through this object's own trampolines, so a
 * plain link command (without libhcc) links and measures (bind.h). */
#include "bind.h"
#include "../region.h"
#include "../hcc.h"
/* The POMP2 declarations the instrumentor writes calls of come with
 * inject_openmp.h, which hcc adds only for sources that call them. */
/* No system header here (not even <omp.h> or <stdint.h>): this file comes
 * before the user's first line, and a system header would fix glibc's
 * feature set before the user's `#define _GNU_SOURCE`. Every macro it
 * defines is named HCC_* or __hcc_* (tests/openmp: PreludeIsSelfContained).
 *
 * Measured lock calls: the instrumentor rewrites `omp_set_lock(&l)` to
 * `HCC_OMP_LOCK_(omp_set_lock, POMP2_Set_lock)(&l)` (insertions only, the
 * original name stays in the text); the POMP2 wrapper takes the lock as a
 * `void *`, so omp.h's lock types are not needed here. */
#define HCC_OMP_LOCK_(omp_function, pomp_wrapper) pomp_wrapper

#ifdef __cplusplus
namespace hcc {
namespace detail {
/* The exit runs on every way out of the scope: return, break out of a loop
 * that returns, exceptions. */
class FunctionGuard {
 public:
  // An excluded region (HCC_REGION_EXCLUDED) is not even called.
  explicit FunctionGuard(hcc_region_desc *r) noexcept : r_(r) {
    if (__builtin_expect(__atomic_load_n(&r->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_enter(r);
  }
  ~FunctionGuard() {
    if (__builtin_expect(__atomic_load_n(&r_->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_exit(r_);
  }
  FunctionGuard(const FunctionGuard &) = delete;
  FunctionGuard &operator=(const FunctionGuard &) = delete;

 private:
  hcc_region_desc *r_;
};
}  /* namespace detail */
}  /* namespace hcc */
#define HCC_FUNCTION_GUARD_(var, desc) ::hcc::detail::FunctionGuard var(desc)
#else
/* C: GCC and Clang run a variable's cleanup function on every exit from its
 * scope (and during unwinding with -fexceptions). */
static __inline__ void __hcc_cleanup_exit(hcc_region_desc **r) {
  if (__builtin_expect(__atomic_load_n(&(*r)->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_exit(*r);
}
static __inline__ hcc_region_desc *__hcc_enter_ret(hcc_region_desc *r) {
  if (__builtin_expect(__atomic_load_n(&r->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_enter(r);
  return r;
}
#define HCC_FUNCTION_GUARD_(var, desc)                                  \
  hcc_region_desc *var                                                  \
      __attribute__((cleanup(__hcc_cleanup_exit), unused)) =            \
          __hcc_enter_ret(desc)
#endif

#endif /* __ASSEMBLER__ */
#endif /* HCC_DETAIL_INJECT_H */

/* hcc — prelude that `hcc` force-includes (-include) into every source it
 * instruments. It declares the guard the instrumentor puts at the top of each
 * function body. Nothing here is meant to be written by users.
 *
 * The instrumentor writes, on the same line as a body's opening brace:
 *   static hcc_region_desc __hcc_rd7 = {"name", "mangled", "file.c", 10, 20, 0, 0};
 *   HCC_FUNCTION_GUARD_(__hcc_g7, &__hcc_rd7);
 * or, for a function a filter counts (count mode), HCC_COUNT_GUARD_ alike,
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

#ifdef HCC_BIND_GUARDS_
/* bind.h's guard calls: each tests the descriptor for HCC_REGION_EXCLUDED
 * (at offset 36, which the array size below checks) and calls the runtime
 * only when the region is recorded. */
#ifdef __cplusplus
extern "C" {
#endif
void __hcc_enter_guard(hcc_region_desc *r) __asm__("__hcc_t_hcc_enter_guard")
    __attribute__((__visibility__("hidden"), __nothrow__));
void __hcc_exit_guard(hcc_region_desc **r) __asm__("__hcc_t_hcc_exit_guard")
    __attribute__((__visibility__("hidden"), __nothrow__));
/* Count mode: the slots of bind.h's core table, called directly (one
 * indirect call per event; the hooks test for an excluded region). */
extern void (*__hcc_s_hcc_count_enter)(hcc_region_desc *r) __attribute__((__visibility__("hidden")));
extern void (*__hcc_s_hcc_count_exit)(hcc_region_desc *r) __attribute__((__visibility__("hidden")));
extern void (*__hcc_s_hcc_count_visit)(hcc_region_desc *r) __attribute__((__visibility__("hidden")));
static __inline__ __attribute__((__always_inline__, __unused__)) void __hcc_count_cleanup(hcc_region_desc **r) {
  __hcc_s_hcc_count_exit(*r);
}
typedef char __hcc_guard_id_offset_is_36[__builtin_offsetof(hcc_region_desc, id) == 36 ? 1 : -1];
#ifdef __cplusplus
}
#endif
#endif

#ifdef __cplusplus
namespace hcc {
namespace detail {
/* The exit runs on every way out of the scope: return, break out of a loop
 * that returns, exceptions. */
class FunctionGuard {
 public:
#ifdef HCC_BIND_GUARDS_
  explicit FunctionGuard(hcc_region_desc *r) noexcept : r_(r) { __hcc_enter_guard(r); }
  ~FunctionGuard() { __hcc_exit_guard(&r_); }
#else
  // An excluded region (HCC_REGION_EXCLUDED) is not even called.
  explicit FunctionGuard(hcc_region_desc *r) noexcept : r_(r) {
    if (__builtin_expect(__atomic_load_n(&r->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_enter(r);
  }
  ~FunctionGuard() {
    if (__builtin_expect(__atomic_load_n(&r_->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_exit(r_);
  }
#endif
  FunctionGuard(const FunctionGuard &) = delete;
  FunctionGuard &operator=(const FunctionGuard &) = delete;

 private:
  hcc_region_desc *r_;
};
/* Count mode (a function a filter COUNTs): the same guard through
 * hcc_count_enter/hcc_count_exit, which read no clock. */
class CountGuard {
 public:
#ifdef HCC_BIND_GUARDS_
  explicit CountGuard(hcc_region_desc *r) noexcept : r_(r) { __hcc_s_hcc_count_enter(r); }
  ~CountGuard() { __hcc_s_hcc_count_exit(r_); }
#else
  explicit CountGuard(hcc_region_desc *r) noexcept : r_(r) {
    if (__builtin_expect(__atomic_load_n(&r->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_count_enter(r);
  }
  ~CountGuard() {
    if (__builtin_expect(__atomic_load_n(&r_->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_count_exit(r_);
  }
#endif
  CountGuard(const CountGuard &) = delete;
  CountGuard &operator=(const CountGuard &) = delete;

 private:
  hcc_region_desc *r_;
};
}  /* namespace detail */
}  /* namespace hcc */
#define HCC_FUNCTION_GUARD_(var, desc) ::hcc::detail::FunctionGuard var(desc)
#define HCC_COUNT_GUARD_(var, desc) ::hcc::detail::CountGuard var(desc)
#elif defined(HCC_BIND_GUARDS_)
/* C: GCC and Clang run a variable's cleanup function on every exit from its
 * scope (and during unwinding with -fexceptions). */
#define HCC_FUNCTION_GUARD_(var, desc)                                  \
  hcc_region_desc *var                                                  \
      __attribute__((cleanup(__hcc_exit_guard), unused)) =              \
          (__hcc_enter_guard(desc), (desc))
#define HCC_COUNT_GUARD_(var, desc)                                     \
  hcc_region_desc *var                                                  \
      __attribute__((cleanup(__hcc_count_cleanup), unused)) =           \
          (__hcc_s_hcc_count_enter(desc), (desc))
#else
/* Without bind.h's guard calls the test is inline. */
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
static __inline__ void __hcc_cleanup_count_exit(hcc_region_desc **r) {
  if (__builtin_expect(__atomic_load_n(&(*r)->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_count_exit(*r);
}
static __inline__ hcc_region_desc *__hcc_count_enter_ret(hcc_region_desc *r) {
  if (__builtin_expect(__atomic_load_n(&r->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_count_enter(r);
  return r;
}
#define HCC_COUNT_GUARD_(var, desc)                                     \
  hcc_region_desc *var                                                  \
      __attribute__((cleanup(__hcc_cleanup_count_exit), unused)) =      \
          __hcc_count_enter_ret(desc)
#endif

/* Count mode for a function that calls nothing (the instrumentor decides,
 * runtime/core/README.md "Count mode"): one call where the guard would
 * enter, nothing at the exits. A declaration, like the guards, so it may
 * stand before the body's other declarations in C90. */
#if defined(HCC_BIND_GUARDS_)
#define HCC_COUNT_VISIT_(var, desc)                                     \
  hcc_region_desc *var __attribute__((__unused__)) = (__hcc_s_hcc_count_visit(desc), (desc))
#else
static __inline__ __attribute__((__unused__)) hcc_region_desc *__hcc_count_visit_ret(hcc_region_desc *r) {
  if (__builtin_expect(__atomic_load_n(&r->id, __ATOMIC_RELAXED) != HCC_REGION_EXCLUDED, 1)) hcc_count_visit(r);
  return r;
}
#define HCC_COUNT_VISIT_(var, desc) hcc_region_desc *var __attribute__((__unused__)) = __hcc_count_visit_ret(desc)
#endif

#endif /* __ASSEMBLER__ */
#endif /* HCC_DETAIL_INJECT_H */

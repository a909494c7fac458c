/* hcc runtime — the interposed longjmp family.
 *
 * libhcc is linked before libc, so a program's calls to these names bind
 * here. Each one unwinds the shadow stack (longjmp.cpp) and then jumps with
 * the real function from the next object in the search order (libc). Written
 * in C so the definitions can match <setjmp.h> exactly. The real functions are
 * resolved in a constructor, because siglongjmp is often called from signal
 * handlers, where dlsym is not safe. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <gnu/lib-names.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*jump_fn)(struct __jmp_buf_tag *, int);

void hcc_rt_longjmp_unwind(const void *env) __attribute__((visibility("hidden")));

enum { J_LONGJMP, J__LONGJMP, J_SIGLONGJMP, J_CHK, J_COUNT };
static const char *const names[J_COUNT] = {"longjmp", "_longjmp", "siglongjmp", "__longjmp_chk"};
static jump_fn real[J_COUNT];

/* The next definition in the search order: libc's, when libhcc precedes
 * libc (linked by hcc). A libhcc loaded later (dlopen()ed by objects that
 * bind the runtime themselves, include/hcc/detail/bind.h, or as a dependency
 * of a preloaded library) has nothing after it: then the program's calls go
 * to libc directly and ours is only reached by name, so libc's is taken. */
static jump_fn lookup(int which) {
  jump_fn f = (jump_fn)dlsym(RTLD_NEXT, names[which]);
  if (!f) {
    void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
    if (libc) f = (jump_fn)dlsym(libc, names[which]);
  }
  return f;
}

static jump_fn resolve(int which) {
  jump_fn f = __atomic_load_n(&real[which], __ATOMIC_RELAXED);
  if (!f) {
    f = lookup(which);
    if (!f) {
      fprintf(stderr, "hcc: error: cannot find the real %s: %s\n", names[which], dlerror());
      abort();
    }
    __atomic_store_n(&real[which], f, __ATOMIC_RELAXED);
  }
  return f;
}

/* Only what can be found: a function still missing is an error when (if
 * ever) it is called, not while the library loads. */
__attribute__((constructor)) static void resolve_all(void) {
  for (int i = 0; i < J_COUNT; ++i) __atomic_store_n(&real[i], lookup(i), __ATOMIC_RELAXED);
}

#define HCC_INTERPOSE __attribute__((visibility("default"), noreturn))

HCC_INTERPOSE void longjmp(struct __jmp_buf_tag env[1], int val) {
  hcc_rt_longjmp_unwind(env);
  resolve(J_LONGJMP)(env, val);
  __builtin_unreachable();
}

HCC_INTERPOSE void _longjmp(struct __jmp_buf_tag env[1], int val) {
  hcc_rt_longjmp_unwind(env);
  resolve(J__LONGJMP)(env, val);
  __builtin_unreachable();
}

HCC_INTERPOSE void siglongjmp(struct __jmp_buf_tag env[1], int val) {
  hcc_rt_longjmp_unwind(env);
  resolve(J_SIGLONGJMP)(env, val);
  __builtin_unreachable();
}

/* What longjmp becomes under _FORTIFY_SOURCE. */
HCC_INTERPOSE void __longjmp_chk(struct __jmp_buf_tag env[1], int val) {
  hcc_rt_longjmp_unwind(env);
  resolve(J_CHK)(env, val);
  __builtin_unreachable();
}

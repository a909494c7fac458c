/* hcc — the fixed-width integer types of region.h and pomp2.h, taken from the
 * compiler's predefined macros rather than from <stdint.h>.
 *
 * Why: the prelude (inject.h) is force-included ahead of the user's first
 * line. Any system header there includes glibc's <features.h> first, which
 * fixes the feature set before the user's own `#define _GNU_SOURCE` (or
 * _POSIX_C_SOURCE, _XOPEN_SOURCE, _DEFAULT_SOURCE) is seen: functions such as
 * strcasestr stay undeclared, and in C an implicit `int` return cuts the
 * pointer. GCC and Clang predefine these macros with the types <stdint.h>
 * uses, so int32_t and HCC_I32_ are one type. */
#ifndef HCC_DETAIL_INT_TYPES_H
#define HCC_DETAIL_INT_TYPES_H
#if defined(__INT32_TYPE__) && defined(__UINT32_TYPE__) && defined(__INT64_TYPE__)
#define HCC_I32_ __INT32_TYPE__
#define HCC_U32_ __UINT32_TYPE__
#define HCC_I64_ __INT64_TYPE__
#else /* another compiler, outside the prelude: the standard header */
#include <stdint.h>
#define HCC_I32_ int32_t
#define HCC_U32_ uint32_t
#define HCC_I64_ int64_t
#endif
#endif

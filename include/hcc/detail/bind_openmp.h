/* hcc — the OpenMP (POMP2) table of trampolines, emitted into an object
 * whose code calls the POMP2 functions: pomp2.h includes this after its
 * declarations when hcc's prelude binds the calls (bind.h). Objects without
 * OpenMP code do not carry its sixty entries (bind.h says why). Nothing
 * here is for users. */
#ifndef HCC_DETAIL_BIND_OPENMP_H
#define HCC_DETAIL_BIND_OPENMP_H
/* The asm strings are longer than ISO C asks compilers to support. */
#pragma GCC system_header
#ifdef HCC_BIND_TABLE_BEGIN_
HCC_BIND_TABLE_BEGIN_("_omp")
HCC_BIND_OPENMP_LIST_(HCC_BIND_OPENMP_ENTRY_)
HCC_BIND_TABLE_END_("_omp")
#endif
#endif /* HCC_DETAIL_BIND_OPENMP_H */

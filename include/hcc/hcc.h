/* hcc — the public API: named regions, pause/resume.
 *
 *   #include <hcc/hcc.h>
 *   HCC_REGION_BEGIN("solve");  ...  HCC_REGION_END("solve");
 *   { HCC_SCOPE("assemble"); ... }            (C++: ends with the scope)
 *   #pragma hcc region begin(io)  ...  #pragma hcc region end(io)
 *   #pragma pomp inst begin(io)   ...  #pragma pomp inst end(io)   (OPARI2 form)
 *   HCC_PAUSE(); ... HCC_RESUME();            (this thread records nothing between)
 *
 * Code using this header builds WITHOUT hcc too: `hcc` force-includes a
 * prelude that defines HCC_INSTRUMENTED; without it the macros expand to
 * nothing and no hcc_* function is referenced, so no libhcc is needed.
 * (Calling the functions directly needs libhcc; the macros are the portable
 * way.) Regions must nest with each other and with functions: an end that
 * does not close the innermost open region is reported on stderr, naming
 * both regions. The pragmas are turned into the calls by the instrumentor,
 * on the same line; a plain compiler ignores them (-Wunknown-pragmas may
 * warn). */
#ifndef HCC_HCC_H
#define HCC_HCC_H

/* Empty unless hcc's prelude binds the calls itself (detail/bind.h). */
#ifndef HCC_BIND_
#define HCC_BIND_(name)
#endif

#ifdef __cplusplus
extern "C" {
#endif

void hcc_region_begin(const char *name) HCC_BIND_(hcc_region_begin);
void hcc_region_end(const char *name) HCC_BIND_(hcc_region_end);
/* Nested pauses need as many resumes; per thread. */
void hcc_pause(void) HCC_BIND_(hcc_pause);
void hcc_resume(void) HCC_BIND_(hcc_resume);

#ifdef __cplusplus
}
#endif

#ifdef HCC_INSTRUMENTED
#define HCC_REGION_BEGIN(name) hcc_region_begin(name)
#define HCC_REGION_END(name) hcc_region_end(name)
#define HCC_PAUSE() hcc_pause()
#define HCC_RESUME() hcc_resume()
#ifdef __cplusplus
namespace hcc {
/* Begins a named region now and ends it with the scope (return, exception). */
class Scope {
 public:
  explicit Scope(const char *name) noexcept : name_(name) { hcc_region_begin(name); }
  ~Scope() { hcc_region_end(name_); }
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;

 private:
  const char *name_;
};
}  /* namespace hcc */
#define HCC_SCOPE_CAT2_(a, b) a##b
#define HCC_SCOPE_CAT_(a, b) HCC_SCOPE_CAT2_(a, b)
#define HCC_SCOPE(name) ::hcc::Scope HCC_SCOPE_CAT_(hcc_scope_, __LINE__)(name)
#endif
#else /* not built by hcc: nothing is measured, nothing is referenced */
#define HCC_REGION_BEGIN(name) ((void)0)
#define HCC_REGION_END(name) ((void)0)
#define HCC_PAUSE() ((void)0)
#define HCC_RESUME() ((void)0)
#ifdef __cplusplus
#define HCC_SCOPE(name) static_cast<void>(0)
#endif
#endif

#endif /* HCC_HCC_H */

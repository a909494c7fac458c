// The setjmp rewriter: `setjmp(env)` becomes
// `(hcc_setjmp_mark(env), setjmp(env))` so the runtime records its shadow
// stack depth for `env`; a later longjmp(env) then unwinds the regions it
// skipped instead of attributing all later time to them.
// Covers setjmp, _setjmp, sigsetjmp and __sigsetjmp, called directly or
// through glibc's function-like macros.
#ifndef HCC_REWRITER_SETJMP_MARKS_H
#define HCC_REWRITER_SETJMP_MARKS_H

#include "rewrite_context.h"

namespace hcc::rewriter {

// Returns the number of calls marked.
unsigned addSetjmpMarks(RewriteContext &ctx);

}  // namespace hcc::rewriter

#endif

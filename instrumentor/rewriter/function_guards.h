// The function-entry rewriter: puts a static region descriptor and an
// enter/exit guard right after the opening brace of every function (and
// lambda) body written in the main file, on the same line:
//
//   int fib(int n) {static hcc_region_desc __hcc_rd0 = {"fib(int)", "_Z3fibi",
//       "app.cpp", 3, 7, 0, 0}; HCC_FUNCTION_GUARD_(__hcc_g0, &__hcc_rd0); ...
//
// and explains (RewriteContext::messages) every function it leaves alone.
// A function the filter counts (Filter::counts: a COUNT rule, or
// --hcc-functions=count:) gets HCC_COUNT_GUARD_ instead: the same guard
// calling hcc_count_enter/hcc_count_exit (visits only, no clock).
#ifndef HCC_REWRITER_FUNCTION_GUARDS_H
#define HCC_REWRITER_FUNCTION_GUARDS_H

#include "rewrite_context.h"

namespace hcc::rewriter {

// Returns the number of guards inserted.
unsigned addFunctionGuards(RewriteContext &ctx);

}  // namespace hcc::rewriter

#endif

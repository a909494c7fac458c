// OpenMP directives → POMP2 calls (pomp/, include/hcc/pomp2.h), OPARI2's
// shape on hcc's terms: every change is an insertion on an existing line.
// The original `#pragma omp …` line is commented out (`//` before its `#`)
// and re-issued as `_Pragma("omp …")` on the same line with the clauses it
// needs (nowait, the handle shared, the team token firstprivate, combined
// constructs split), wrapped in `{ … }` together with the calls; the
// associated statement is wrapped the same way at its first and last line.
// Constructs it does not handle are left exactly as written (and so is
// anything nested inside them).
#ifndef HCC_REWRITER_OPENMP_DIRECTIVES_H
#define HCC_REWRITER_OPENMP_DIRECTIVES_H

#include "rewrite_context.h"

namespace hcc::rewriter {

// Returns the number of directives rewritten.
unsigned addOpenMPDirectives(RewriteContext &ctx);

}  // namespace hcc::rewriter

#endif

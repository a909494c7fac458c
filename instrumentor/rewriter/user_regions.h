// User-region pragmas: `#pragma hcc region begin(name)` / `end(name)` and
// OPARI2's `#pragma pomp inst begin(name)` / `end(name)` become calls of
// hcc_region_begin/hcc_region_end (include/hcc/hcc.h) on the same line.
#ifndef HCC_REWRITER_USER_REGIONS_H
#define HCC_REWRITER_USER_REGIONS_H

#include "rewrite_context.h"

namespace hcc::rewriter {

unsigned addUserRegionPragmas(RewriteContext &ctx);

}  // namespace hcc::rewriter

#endif

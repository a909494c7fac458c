// OpenMP text Clang 19 does not parse (a directive or clause newer than it,
// or one GCC accepts and Clang does not, such as `flush seq_cst` or
// `assume`) must not cost the whole file its instrumentation. When every
// parse error lies on a `#pragma omp` line of the main file, the parser is
// given a copy of the file in which the offending clause, or the whole
// pragma when its directive name is the problem, is replaced by blanks
// (same length, newlines kept, so every offset and line stays put). The
// rewriters then work on that parse, and the output is made from the real
// text: a blanked pragma is left exactly as written, a directive with a
// blanked clause is re-issued with the clause as written.
#ifndef HCC_REWRITER_UNKNOWN_DIRECTIVES_H
#define HCC_REWRITER_UNKNOWN_DIRECTIVES_H

#include <string>
#include <vector>

namespace hcc::rewriter {

struct BlankedPragma {
  unsigned begin = 0;  // offset of the pragma's `#`
  unsigned end = 0;    // one past its last character (before the newline)
  bool whole = false;  // the whole pragma (else one clause of it)
  std::string clause;  // the clause blanked, as written ("seq_cst")
};

// Blanks, in `text`, the clause or pragma holding each error offset. False
// when some offset is not on a `#pragma omp` line (the file then stays
// uninstrumented, as before). `done` collects what was blanked, one entry
// per pragma (a later round may widen a clause to the whole pragma).
bool blankUnparsedOpenMP(std::string &text, const std::vector<unsigned> &error_offsets,
                         std::vector<BlankedPragma> &done);

}  // namespace hcc::rewriter

#endif

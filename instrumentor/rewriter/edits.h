// Text insertions into the main file's buffer.
//
// Every change hcc makes is an insertion: nothing of the user's text is
// removed or reformatted, and no inserted text contains a newline, so each
// line of the output is the same source line as in the input and compiler
// diagnostics, debug info and __LINE__ stay right.
#ifndef HCC_REWRITER_EDITS_H
#define HCC_REWRITER_EDITS_H

#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace hcc::rewriter {

class Edits {
 public:
  // Inserts `text` before the byte at `offset` of the original buffer.
  // Insertions at the same offset come out in the order they were made.
  void insert(unsigned offset, std::string text);

  // The original buffer with all insertions applied.
  std::string apply(llvm::StringRef original) const;

  bool empty() const { return inserts_.empty(); }
  size_t size() const { return inserts_.size(); }

 private:
  struct Insert {
    unsigned offset;
    std::string text;
  };
  std::vector<Insert> inserts_;
};

}  // namespace hcc::rewriter

#endif

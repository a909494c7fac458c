#include "edits.h"

#include <algorithm>
#include <cassert>

namespace hcc::rewriter {

void Edits::insert(unsigned offset, std::string text) {
  // A newline would shift every later line of the user's file.
  assert(text.find('\n') == std::string::npos && "inserted text must keep line numbers");
  inserts_.push_back({offset, std::move(text)});
}

std::string Edits::apply(llvm::StringRef original) const {
  std::vector<Insert> sorted = inserts_;
  // stable: two insertions at one offset keep the order the rewriters chose.
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Insert &a, const Insert &b) { return a.offset < b.offset; });
  size_t extra = 0;
  for (const Insert &i : sorted) extra += i.text.size();

  std::string out;
  out.reserve(original.size() + extra);
  size_t pos = 0;
  for (const Insert &i : sorted) {
    size_t at = std::min<size_t>(i.offset, original.size());
    out.append(original.data() + pos, at - pos);
    out += i.text;
    pos = at;
  }
  out.append(original.data() + pos, original.size() - pos);
  return out;
}

}  // namespace hcc::rewriter

#include "user_regions.h"

#include "naming.h"

#include <cctype>
#include <string>

namespace hcc::rewriter {

namespace {

// Skips blanks (not newlines) from `i`.
size_t skipBlanks(llvm::StringRef text, size_t i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return i;
}

// Reads an identifier at `i`; returns "" when there is none.
llvm::StringRef word(llvm::StringRef text, size_t &i) {
  size_t b = i;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
  return text.slice(b, i);
}

}  // namespace

// A text scan of the main file, line by line: a pragma is a whole line, so
// the call is inserted in front of its `#` and the pragma itself becomes a
// `//` comment on the same line (line numbers never move). A pragma in an
// `#if 0` block stays inactive: the inserted text is on the same line.
unsigned addUserRegionPragmas(RewriteContext &ctx) {
  llvm::StringRef text = ctx.sm.getBufferData(ctx.fid);
  unsigned n = 0;
  size_t line_start = 0;
  while (line_start < text.size()) {
    size_t eol = text.find('\n', line_start);
    if (eol == llvm::StringRef::npos) eol = text.size();
    size_t i = skipBlanks(text, line_start);
    // A continued line (backslash-newline) is left alone: it is not ours to split.
    bool continued = eol > line_start && text[eol - 1] == '\\';
    if (!continued && i < eol && text[i] == '#') {
      size_t hash = i;
      i = skipBlanks(text, i + 1);
      if (word(text, i) == "pragma") {
        i = skipBlanks(text, i);
        llvm::StringRef ns = word(text, i);
        i = skipBlanks(text, i);
        llvm::StringRef sub = word(text, i);
        if ((ns == "hcc" && sub == "region") || (ns == "pomp" && sub == "inst")) {
          i = skipBlanks(text, i);
          llvm::StringRef what = word(text, i);
          i = skipBlanks(text, i);
          if ((what == "begin" || what == "end") && i < eol && text[i] == '(') {
            size_t close = text.find(')', i);
            if (close != llvm::StringRef::npos && close < eol) {
              std::string name = text.slice(i + 1, close).trim().str();
              std::string call = what == "begin" ? "hcc_region_begin" : "hcc_region_end";
              ctx.edits.insert(unsigned(hash), call + "(" + quoteCString(name) + "); //");
              ++n;
            }
          }
        }
      }
    }
    line_start = eol + 1;
  }
  return n;
}

}  // namespace hcc::rewriter

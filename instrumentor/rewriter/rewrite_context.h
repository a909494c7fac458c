// What every rewriter (function_guards, setjmp_marks, ...) gets: the parsed
// translation unit, the main file's top-level declarations, the edit list and
// the place to explain what was left alone.
#ifndef HCC_REWRITER_REWRITE_CONTEXT_H
#define HCC_REWRITER_REWRITE_CONTEXT_H

#include "edits.h"
#include "function_size.h"
#include "unknown_directives.h"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/SourceManager.h>

#include "filter/filter.hpp"

#include <set>
#include <string>
#include <vector>

namespace hcc::rewriter {

// One file is rewritten at a time: the main file, then each of the
// project's own headers (and #included sources) the parse entered once.
struct RewriteContext {
  clang::ASTContext &ast;
  clang::SourceManager &sm;
  const clang::LangOptions &lang;
  // NAME: the file name written into descriptors and messages (what the user
  // compiled, or the header as the compiler names it; not the temporary path
  // hcc may have parsed).
  std::string file_name;
  // Top-level declarations that may hold functions of this file: those that
  // begin in it, and those an #include of it sits inside. Rewriters traverse
  // only these: system headers' declarations are most of the AST and none of
  // them are rewritten.
  std::vector<clang::Decl *> decls;
  Edits &edits;
  std::vector<std::string> &messages;
  // The file being rewritten.
  clang::FileID fid = {};

  // Line of `loc` in its file as the user sees it (text from a macro
  // counts at the place the macro is used).
  unsigned line(clang::SourceLocation loc) const {
    return sm.getExpansionLineNumber(loc);
  }
  // True when `loc` (or the macro use it comes from) is in this file.
  bool expandsInFile(clang::SourceLocation loc) const {
    return loc.isValid() && sm.getFileID(sm.getExpansionLoc(loc)) == fid;
  }
  // True when `loc` is a character of this file itself, so text can be
  // inserted there.
  bool isFileChar(clang::SourceLocation loc) const {
    return loc.isValid() && loc.isFileID() && sm.getFileID(loc) == fid;
  }
  // "hcc: app.cpp:12: leaving 'sq' alone: constexpr"
  // Said once even when a macro expands the same text twice.
  void leftAlone(clang::SourceLocation loc, const std::string &what,
                 const std::string &why) {
    std::string m = "hcc: " + file_name + ":" + std::to_string(line(loc)) + ": leaving '" +
                    what + "' alone: " + why;
    if (said.insert(m).second) messages.push_back(std::move(m));
  }
  std::set<std::string> said = {};

  // This file as written. The parse may have seen a copy of the main file
  // with unparsable OpenMP text blanked (unknown_directives.h); offsets
  // agree, and text that is copied into the output is taken from here.
  llvm::StringRef original = {};
  std::vector<BlankedPragma> blanked = {};
  // Offsets of the `#` of every `#pragma` line of this file the preprocessor
  // acted on (not those in skipped #if blocks).
  std::vector<unsigned> omp_pragmas = {};

  // The blanked pragma starting at `offset`, or nullptr.
  const BlankedPragma *blankedAt(unsigned offset) const {
    for (const BlankedPragma &b : blanked)
      if (b.begin == offset) return &b;
    return nullptr;
  }
  // True when only blanks and newlines separate `offset` from a wholly
  // blanked (unknown) directive before it: the statement there may be that
  // directive's, and nothing may come between them.
  bool followsUnknownDirective(unsigned offset) const {
    for (const BlankedPragma &b : blanked) {
      if (!b.whole || b.end > offset) continue;
      bool only_space = true;
      for (unsigned i = b.end; i < offset && only_space; ++i)
        only_space = original[i] == ' ' || original[i] == '\t' || original[i] == '\n' ||
                     original[i] == '\r';
      if (only_space) return true;
    }
    return false;
  }
  // Selective instrumentation; nullptr: instrument everything.
  const hcc::filter::Filter *filter = nullptr;
  unsigned filtered = 0;
  unsigned loops = 0;
  // Which functions get a guard (--functions=auto|all|none) and auto's
  // minimum size; left_out counts what auto or none left alone.
  FunctionPolicy functions = FunctionPolicy::All;
  unsigned min_size = kAutoMinSize;
  unsigned left_out = 0;
};

}  // namespace hcc::rewriter

#endif

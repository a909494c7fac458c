// Turns the user's gcc/clang compile flags into a command line for Clang's
// parser: options Clang does not know are dropped (the user may be building
// with GCC), options that would write files or change what is parsed in a
// way we do not want are dropped, and the flags that make a quiet
// syntax-only parse are added.
#ifndef HCC_REWRITER_COMPILE_ARGS_H
#define HCC_REWRITER_COMPILE_ARGS_H

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace hcc::rewriter {

struct ClangCommand {
  std::vector<std::string> argv;     // argv[0] is the clang binary name
  std::vector<std::string> dropped;  // user arguments removed, as written
  std::string language;              // -x value in effect ("c", "c++", ...), or "" if
                                     // clang decides from the file name
};

// `user_args` are the compiler arguments without source files and -o/-c.
ClangCommand clangCommand(const std::string &source, llvm::ArrayRef<std::string> user_args);

// "c", "c++" or "" from the extension: .c is C; .cc .cpp .cxx .c++ .C .cp
// (and their upper-case spellings) are C++.
llvm::StringRef languageOfFile(llvm::StringRef path);

// Clang's resource directory (stddef.h, omp.h, ...), fixed at build time.
const char *clangResourceDir();

// A directory with an omp.h when the resource directory has none (only
// libomp-19-dev puts one there), or nullptr.
const char *fallbackOmpDir();

}  // namespace hcc::rewriter

#endif

// hcc's source rewriter as a library: parse one file with Clang (again with
// unparsable OpenMP text blanked, unknown_directives.h; on a precompiled
// preamble when given one, preamble_cache.h), apply the rewriters
// (function_guards, setjmp_marks, user_regions, openmp_directives) to it
// and to the project's own headers it includes, return the new texts.
// tool.cpp is the command-line front end (with the result cache and the
// shadow tree, ../cache/); the unit tests call this directly.
#ifndef HCC_REWRITER_INSTRUMENT_H
#define HCC_REWRITER_INSTRUMENT_H

#include "cache_dir.h"
#include "function_size.h"
#include "result.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace hcc::filter {
class Filter;
}

namespace hcc::rewriter {

struct Options {
  // Selective instrumentation (--filter/--include/--exclude): functions it
  // excludes get no guard; TAU `loops` requests add loop regions. nullptr or
  // empty: every function.
  const hcc::filter::Filter *filter = nullptr;
  // Written into `#line 1 "NAME"` and every descriptor; "" means the source path.
  std::string main_file_name;
  // Skip tearing down the AST at the end. For a process that exits right
  // after (hcc-instrument); a library user must leave this off.
  bool leak_ast = false;
  // OpenMP directives → POMP2 calls (openmp_directives.cpp); the driver's
  // --hcc-openmp=on|off, default kOpenMPDefault.
  bool openmp = kOpenMPDefault;
  // Also rewrite the project's own headers and #included sources: every file
  // the main file includes that is not a system header (not found through
  // -isystem, the compiler's own directories or /usr/include). Their copies
  // come back in Result::files. Off: only the main file, and the parser
  // skips every other file's function bodies.
  bool headers = false;
  // How the compiler underneath names a header found beside a file given
  // without a directory: Clang "./x.h", GCC "x.h" (--names=clang|gcc). The
  // copies' `#line` names are the ones that compiler prints without hcc.
  bool clang_names = false;
  // The checked cache directory (cache_dir.h) whose pch/ keeps the
  // precompiled preambles of the leading system headers for reuse
  // (preamble_cache.h); disabled for none.
  CacheDir cache;
  // Takes work that can wait until the file's answer is sent (precompiling
  // a preamble), or returns false; empty: such work is done at once.
  std::function<bool(std::function<void()>)> defer;
  // Which functions get a guard (function_size.h): All here, so the
  // rewriter's own tests show every rewrite; hcc-instrument (and so hcc)
  // defaults to Auto. The filter applies on top; under Auto a function an
  // include rule names explicitly is kept whatever its size.
  FunctionPolicy functions = FunctionPolicy::All;
  // Auto's minimum size (statements + operations), --min-size=N.
  unsigned min_size = kAutoMinSize;
};

// `compile_args`: the user's compiler arguments minus sources and -o/-c.
Result instrumentFile(const std::string &source, const std::vector<std::string> &compile_args,
                      const Options &options);

// The same on text in memory: `code` is the file `path`; `extra_files` maps
// more paths (headers) to their contents. Other files come from disk.
Result instrumentCode(const std::string &code, const std::string &path,
                      const std::vector<std::string> &compile_args, const Options &options,
                      const std::map<std::string, std::string> &extra_files = {});

}  // namespace hcc::rewriter

#endif

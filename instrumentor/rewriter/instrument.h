// hcc's source rewriter as a library: parse one file with Clang (again with
// unparsable OpenMP text blanked, unknown_directives.h; on a precompiled
// preamble when given one, preamble_cache.h), apply the rewriters
// (function_guards, setjmp_marks, user_regions, openmp_directives) to it
// and to the project's own headers it includes, return the new texts.
// tool.cpp is the command-line front end (with the result cache,
// result_cache.h, and the shadow tree, shadow_tree.h); the unit tests call
// this directly.
#ifndef HCC_REWRITER_INSTRUMENT_H
#define HCC_REWRITER_INSTRUMENT_H

#include "function_size.h"

#include <map>
#include <string>
#include <vector>

namespace hcc::filter {
class Filter;
}

namespace hcc::rewriter {

// Whether OpenMP directives are rewritten when neither --openmp=on nor
// --openmp=off is given. On: every construct the rewriter handles is tested
// under gcc/libgomp and clang/libomp (tests/openmp), and the others are left
// exactly as written.
constexpr bool kOpenMPDefault = true;

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
  // Where precompiled preambles of the leading system headers are kept and
  // reused (preamble_cache.h); "" for none.
  std::string preamble_dir;
  // Which functions get a guard (function_size.h): All here, so the
  // rewriter's own tests show every rewrite; hcc-instrument (and so hcc)
  // defaults to Auto. The filter applies on top; under Auto a function an
  // include rule names explicitly is kept whatever its size.
  FunctionPolicy functions = FunctionPolicy::All;
  // Auto's minimum size (statements + operations), --min-size=N.
  unsigned min_size = kAutoMinSize;
};

// A file the main file includes, as the compiler is to read it instead of
// the original: `#line 1 "NAME"` + its text, with guards when it defines
// functions hcc instruments.
struct OutputFile {
  std::string path;  // the original, absolute: its directory's real path + its name
  std::string name;  // as the compiler names it ("include/geo/grid.hpp")
  std::string text;
  unsigned guards = 0;
  bool rewritten = false;  // text differs from the original (beyond #line)
};

struct Result {
  bool ok = false;
  // `#line 1 "NAME"` + the rewritten file; empty unless ok.
  std::string output;
  // One line per function left alone, per parse error, per dropped compiler
  // option: what --verbose prints.
  std::vector<std::string> messages;
  unsigned guards = 0;
  unsigned setjmp_marks = 0;
  unsigned filtered = 0;      // functions left alone because the filter excludes them
  unsigned left_out = 0;      // functions left alone by --functions=auto (too small) or none
  unsigned loops = 0;         // loop regions (TAU BEGIN_INSTRUMENT_SECTION loops)
  unsigned openmp_directives = 0;  // OpenMP directives turned into POMP2 calls
  unsigned user_regions = 0;  // #pragma hcc region / pomp inst begin|end turned into calls
  // With Options::headers: every non-system file the parse entered but the
  // main file, in the order first entered (counts above include theirs).
  std::vector<OutputFile> files;
  // What the result depends on besides the main file and the command line
  // (for result_cache.h): every path the parse asked the file system about
  // (opened, checked, listed), found or not — a header that appears where
  // an #include looked in vain changes the result too. Absolute paths; a
  // directory the parse listed is marked "L:".
  std::vector<std::string> inputs;
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

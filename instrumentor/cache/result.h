// What instrumenting one source produces: the rewritten file, the
// project's headers as the compiler is to read them, counts and messages,
// and what the result depended on. Plain data (no Clang) so the result
// cache and the driver's cache lookup can hold it.
#ifndef HCC_CACHE_RESULT_H
#define HCC_CACHE_RESULT_H

#include <string>
#include <vector>

namespace hcc::rewriter {

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

}  // namespace hcc::rewriter

#endif

// Parse once: the system headers a file starts with, precompiled.
//
// Most of the instrumentor's time on a C++ file goes into the standard
// headers it includes first, and those stay the same while the file is
// edited and rebuilt. The leading block of #include/#define lines of the
// main file, up to its first quoted #include (the project's own headers are
// rewritten, so they must be parsed, not loaded), is its preamble; Clang
// precompiles it (PrecompiledPreamble, as clangd does; system function
// bodies skipped) into `<cache>/pch/<key>.pch` the second time that
// preamble is parsed (the first leaves a `.seen` mark, so a project's first
// build, each file once, pays nothing), keyed by the preamble's text, the parser's
// command line (the main file's name in it reduced to its extension), the
// working directory and the tool binary. A later parse of the same file —
// even after its body changed — or of another file that starts with the
// same lines and is compiled with the same flags from the same directory
// loads the PCH instead of parsing those headers, when every path the
// precompilation asked about is as it was (result_cache.h's signatures).
// Not the main file's path: an angle-bracket include is not looked up
// beside it, and a header found there is a project header, which makes the
// preamble unusable for every file that shares it (a preamble that can look
// beside it — __has_include("x.h"), an #include of a macro — keeps the main
// file's directory in its key; a string that names no file, in a #define,
// an #error or a comment, does not). A
// preamble that reaches a non-system header anyway is remembered as not
// usable. Anything going wrong means a normal parse.
#ifndef HCC_REWRITER_PREAMBLE_CACHE_H
#define HCC_REWRITER_PREAMBLE_CACHE_H

#include "cache_dir.h"
#include "compile_args.h"

#include <llvm/Support/VirtualFileSystem.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hcc::rewriter {

struct PreambleUse {
  std::string pch;  // the precompiled preamble, by a path through `dir`
  CacheDir dir;     // the checked pch/ directory, kept open while `pch` is used
  unsigned size = 0;  // bytes of the main file it stands for
  bool ends_at_start_of_line = true;
};

// The precompiled preamble of `source` (built now and stored when missing)
// from the checked cache directory `cache` (its pch/ subdirectory, under the
// same rule: cache_dir.h); nullopt when there is none to use. Clang reads
// and writes these files by name, so it is given names through the opened
// directory's descriptor (CacheDir::pinnedPath), which nobody can redirect.
// `messages` gets one line saying what happened (for --verbose); `inputs`
// gets the paths the precompilation depended on (a result built on the
// preamble depends on them too). With `defer` (an instrumentation server's
// worker), a preamble seen the second time is not precompiled now but
// handed to `defer` as a job to run once this file's answer is sent: this
// file is parsed as usual, the precompilation overlaps the compiler that
// runs next, and the files after it find the PCH. `defer` returns false
// when it cannot take the job; then it is done now.
std::optional<PreambleUse> preparePreamble(
    const CacheDir &cache, const ClangCommand &cmd, const std::string &source,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, std::vector<std::string> &messages,
    std::vector<std::string> &inputs,
    const std::function<bool(std::function<void()>)> &defer = nullptr);

}  // namespace hcc::rewriter

#endif

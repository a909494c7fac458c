// The end of an instrumentation, shared by hcc-instrument and the driver:
// writing a result where the compiler reads it (OUT, the shadow tree of the
// project's headers) and, for an unchanged source, taking that result from
// the cache (result_cache.h). The driver calls serveFromCache before it
// starts hcc-instrument: a hit then costs a few file-system checks in the
// driver's process instead of starting an 80 MB Clang tool (~8 ms per
// compiled file, most of a cached compile's overhead on a small file).
#ifndef HCC_CACHE_CACHED_RUN_H
#define HCC_CACHE_CACHED_RUN_H

#include "cache_dir.h"
#include "command_line.h"
#include "result.h"

#include <optional>
#include <string>

namespace hcc::rewriter {

// Writes `r` (an ok result) as the command line asks: OUT atomically, the
// headers' copies under --shadow-dir; with --verbose its messages and the
// summary line ("(from the instrumentation cache)" when `cached`). Returns
// the tool's exit status: 0, or kFailed (OUT removed) when a write failed.
int writeResult(const CommandLine &cl, const Result &r, bool cached, bool filter_active);

// The cached result for this command line written out, with the exit
// status; nullopt when the cache is off (`cache` disabled: HCC_CACHE=off,
// or a directory that is not private, cache_dir.h), has no entry (or none
// whose seal holds), something the entry depends on changed, or the
// filters do not load (the caller instruments, and reports). `self` is the
// instrumentor binary (part of the key). `key`, when given, receives the key
// ("" when there is none) for storing a new result after a miss.
std::optional<int> serveFromCache(const CacheDir &cache, const CommandLine &cl, const std::string &self,
                                  std::string *key = nullptr);

}  // namespace hcc::rewriter

#endif

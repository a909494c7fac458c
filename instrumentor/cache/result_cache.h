// A cache of whole instrumentor results, so a file that is compiled again
// unchanged (a rebuild, another build configuration of the same flags, a
// benchmark's repeated compile) costs a few file-system checks instead of a
// Clang parse.
//
// The key is a BLAKE3 hash of everything the rewrite depends on that can be
// known before parsing: the instrumentor binary (size and modification
// time), the working directory, the source path and its contents, the
// compiler arguments, the options (filter file contents included) and the
// include-path environment variables. An entry also records what the parse
// found out: every path it asked the file system about (Result::inputs:
// headers opened, include directories probed, the toolchain directories the
// clang driver lists), with its size, modification time (nanoseconds) and
// inode, or that it was missing. It is used only when all of them are
// unchanged — an edited header, or a file that appears where an #include
// looked in vain, is a miss. Failed instrumentations are not cached.
//
// Environment: HCC_CACHE=off disables it; HCC_CACHE_DIR (default
// $XDG_CACHE_HOME/hcc, else $HOME/.cache/hcc) is where entries go;
// HCC_CACHE_MAX_MB (default 512) bounds its size (precompiled preambles,
// preamble_cache.h, live there too): now and then a store
// removes the least recently used entries.
#ifndef HCC_REWRITER_RESULT_CACHE_H
#define HCC_REWRITER_RESULT_CACHE_H

#include "result.h"

#include <llvm/ADT/StringRef.h>

#include <optional>
#include <string>
#include <vector>

namespace hcc::rewriter {

// What an input looks like now: size, modification time and inode of a
// file, "dir" for a directory that was only looked up, modification time
// too for one that was listed ("L:" prefix), "" when missing.
std::string inputSignature(const std::string &input);
// What a cache entry records of an input: its signature, and for the
// project's files (not under /usr/) "#" and the BLAKE3 of its bytes.
std::string inputRecord(const std::string &input);
// Whether the input is as `record` says: the same signature, or, for a
// file with a content hash, the same size and bytes (a file rewritten with
// what it held, as configure rewrites config.h, still matches).
bool inputUnchanged(const std::string &input, llvm::StringRef record);

class ResultCache {
 public:
  // The directory from the environment; "" when the cache is off.
  static std::string directoryFromEnvironment();

  explicit ResultCache(std::string dir) : dir_(std::move(dir)) {}
  bool enabled() const { return !dir_.empty(); }

  // The key of one instrumentation; `parts` are the inputs known before the
  // parse, in a fixed order (the caller's business).
  static std::string key(const std::vector<std::string> &parts);

  // The stored result for `key` when everything it depends on is as it was.
  std::optional<Result> lookup(const std::string &key) const;
  // Stores `r` (ok results only); failures to write are ignored: the cache
  // only saves time.
  void store(const std::string &key, const Result &r) const;

 private:
  std::string entryPath(const std::string &key) const;
  void evictIfLarge() const;
  std::string dir_;
};

}  // namespace hcc::rewriter

#endif

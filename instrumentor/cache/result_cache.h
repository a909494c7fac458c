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
//
// Trust (issue 28). An entry is compiled into the user's program, so what
// keeps another user's code out is the directory: it is used only when it is
// private (cache_dir.h), every entry is opened relative to the checked
// handle, and an entry file the user does not own, or that others may write,
// is ignored. On top of that each entry is sealed: it ends with a BLAKE3 of
// its key and of everything before the seal (the dependency records with
// the content hashes of the project's files, the instrumented text, the
// header copies, the counts). Without a secret a seal cannot stop someone
// who may write the entry — they can seal again — and no secret could be
// kept from a user who can write the directory; so the seal is not what
// stops an attacker, the private directory is. What the seal does hold: an
// entry that was truncated, half-written, edited by hand or by a tool, or
// copied under another key's name is a miss (and rebuilt), never served.
#ifndef HCC_REWRITER_RESULT_CACHE_H
#define HCC_REWRITER_RESULT_CACHE_H

#include "cache_dir.h"
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

// Seals `body`, stored under `key`: `body` followed by the BLAKE3 of the key
// and of `body` (result_cache.h, "Trust"). Entries and the precompiled
// preambles' records (preamble_cache.h) are sealed alike.
std::string seal(llvm::StringRef key, std::string body);
// The body of `stored` when its seal matches `key` and its bytes; nullopt
// when it is too short, truncated, edited, or sealed for another key.
std::optional<llvm::StringRef> unseal(llvm::StringRef key, llvm::StringRef stored);

// Entries are read whole; a file larger than this is not one of ours.
constexpr size_t kMaxEntryBytes = size_t(1) << 30;

class ResultCache {
 public:
  // `dir` is already checked (cache_dir.h); a disabled one turns this off.
  explicit ResultCache(CacheDir dir) : dir_(std::move(dir)) {}
  bool enabled() const { return dir_.enabled(); }

  // The key of one instrumentation; `parts` are the inputs known before the
  // parse, in a fixed order (the caller's business).
  static std::string key(const std::vector<std::string> &parts);

  // Where the entry for `key` lives, relative to the cache directory:
  // "<first two hex digits>/<the rest>".
  static std::string entryName(const std::string &key);

  // The stored result for `key` when everything it depends on is as it was
  // and its seal holds.
  std::optional<Result> lookup(const std::string &key) const;
  // Stores `r` (ok results only); failures to write are ignored: the cache
  // only saves time.
  void store(const std::string &key, const Result &r) const;

 private:
  void evictIfLarge() const;
  CacheDir dir_;
};

}  // namespace hcc::rewriter

#endif

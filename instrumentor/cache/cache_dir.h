// The instrumentation cache's directory, opened once and checked
// (issue 28): what it holds is compiled into the user's programs, so it is
// used only when it is private — owned by the effective user and writable by
// no one else (runtime/core/private_dir.hpp, the rule the server's socket
// directory follows too). Otherwise hcc says so once and builds without it.
// Every entry, temporary and subdirectory (the fan-out directories, pch/)
// is then reached with *at calls relative to the checked handle, never by a
// path someone could redirect.
//
// Plain POSIX, no LLVM: the driver checks the directory (and warns) before
// anything else looks at it, whatever its build (driver.cpp).
#ifndef HCC_CACHE_CACHE_DIR_H
#define HCC_CACHE_CACHE_DIR_H

#include <memory>
#include <string>

namespace hcc::rewriter {

class CacheDir {
 public:
  CacheDir() = default;  // no cache

  // Where the environment puts the cache: "" when HCC_CACHE=off (0, no,
  // false) or no directory can be named; else HCC_CACHE_DIR, or
  // $XDG_CACHE_HOME/hcc, or $HOME/.cache/hcc.
  static std::string pathFromEnvironment();

  // That directory, opened (created 0700 when missing) and checked. When it
  // fails the rule, or cannot be opened, the result is disabled; when it
  // fails the rule, `refusal` (when given) holds the one-line warning: "not
  // using the instrumentation cache DIR: owned by uid N; building without
  // it" (or "writable by group or others").
  static CacheDir fromEnvironment(std::string *refusal);
  static CacheDir open(const std::string &path, std::string *refusal);

  bool enabled() const { return fd_ != nullptr; }
  // The checked handle (O_PATH; for *at calls); -1 when disabled.
  int fd() const;
  // The path it was opened by, for messages only.
  const std::string &path() const { return path_; }

  // The subdirectory `name` (made 0700 when missing), under the same rule;
  // disabled when it fails it (a subdirectory another user made earlier).
  CacheDir subdirectory(const std::string &name, std::string *refusal = nullptr) const;

  // A path to this very directory that nobody can redirect
  // ("/proc/self/fd/N"), for a library that only takes names (Clang writes
  // and reads precompiled preambles by name). Valid while this object, or a
  // copy of it, lives.
  std::string pinnedPath() const;

 private:
  struct Handle;
  std::shared_ptr<const Handle> fd_;
  std::string path_;
};

}  // namespace hcc::rewriter

#endif

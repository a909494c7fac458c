// A file system that notes every path asked about (opened, checked,
// listed), found or not: what a parse depended on, for the caches
// (result_cache.h, preamble_cache.h). Paths are made absolute; a listed
// directory is marked "L:".
#ifndef HCC_REWRITER_RECORDING_FS_H
#define HCC_REWRITER_RECORDING_FS_H

#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <set>
#include <string>
#include <vector>

namespace hcc::rewriter {

class RecordingFileSystem : public llvm::vfs::ProxyFileSystem {
 public:
  explicit RecordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs)
      : ProxyFileSystem(std::move(fs)) {}
  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override {
    note(path);
    return ProxyFileSystem::status(path);
  }
  bool exists(const llvm::Twine &path) override {
    note(path);
    return ProxyFileSystem::exists(path);
  }
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &path) override {
    note(path);
    return ProxyFileSystem::openFileForRead(path);
  }
  llvm::vfs::directory_iterator dir_begin(const llvm::Twine &dir, std::error_code &ec) override {
    note(dir, "L:");  // listed: its entries matter, not only its existence
    return ProxyFileSystem::dir_begin(dir, ec);
  }
  std::vector<std::string> paths() const { return {paths_.begin(), paths_.end()}; }

 private:
  void note(const llvm::Twine &path, const char *tag = "") {
    llvm::SmallString<256> p;
    path.toVector(p);
    if (!llvm::sys::path::is_absolute(p)) {
      if (auto cwd = getCurrentWorkingDirectory()) {
        llvm::SmallString<256> a(*cwd);
        llvm::sys::path::append(a, p);
        p = a;
      }
    }
    llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/false);
    // A path through one of this process's descriptors (the cache's pinned
    // directory, cache_dir.h: a precompiled preamble) names nothing for a
    // later process; what the preamble read is recorded on its own.
    if (llvm::StringRef(p).starts_with("/proc/self/fd/")) return;
    paths_.insert(tag + p.str().str());
  }
  std::set<std::string> paths_;
};

}  // namespace hcc::rewriter

#endif

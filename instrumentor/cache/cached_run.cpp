#include "cached_run.h"

#include "atomic_file.h"
#include "result_cache.h"
#include "shadow_tree.h"

#include "filter/filter.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

namespace hcc::rewriter {

int writeResult(const CommandLine &cl, const Result &r, bool cached, bool filter_active) {
  if (cl.verbose)
    for (const std::string &m : r.messages) llvm::errs() << m << '\n';
  std::string error;
  if (!writeFileAtomically(cl.out, r.output, &error)) {
    if (cl.verbose) llvm::errs() << "hcc: " << error << '\n';
    return kFailed;
  }
  if (headersOn(cl)) {
    // The source's directory is mirrored too: the driver searches its copy
    // (-iquote) before it.
    llvm::SmallString<256> main_dir;
    llvm::StringRef src_dir = llvm::sys::path::parent_path(cl.source);
    if (llvm::sys::fs::real_path(src_dir.empty() ? "." : src_dir, main_dir)) main_dir = "/";
    std::vector<std::string> notes;
    bool wrote = writeShadowTree(cl.shadow_dir, r.files, main_dir.str().str(), notes, error);
    if (cl.verbose)
      for (const std::string &m : notes) llvm::errs() << m << '\n';
    if (!wrote) {
      if (cl.verbose) llvm::errs() << "hcc: " << error << '\n';
      llvm::sys::fs::remove(cl.out);
      return kFailed;
    }
  }
  if (cl.verbose) {
    llvm::errs() << "hcc: " << (cl.main_file_name.empty() ? cl.source : cl.main_file_name)
                 << ": " << (cached ? "(from the instrumentation cache) " : "") << r.guards
                 << " function guard(s), " << r.setjmp_marks << " setjmp mark(s)";
    if (r.left_out)
      llvm::errs() << ", " << r.left_out << " function(s) left out by --hcc-functions="
                   << (cl.functions == FunctionPolicy::None ? "none" : "auto");
    if (filter_active)
      llvm::errs() << ", " << r.filtered << " function(s) filtered out, " << r.loops << " loop region(s)";
    if (r.openmp_directives) llvm::errs() << ", " << r.openmp_directives << " OpenMP directive(s)";
    if (r.user_regions) llvm::errs() << ", " << r.user_regions << " region pragma(s)";
    llvm::errs() << "\n";
  }
  llvm::errs().flush();
  return 0;
}

std::optional<int> serveFromCache(const CacheDir &dir, const CommandLine &cl, const std::string &self,
                                  std::string *key_out) {
  if (key_out) key_out->clear();
  ResultCache cache(dir);
  std::vector<std::string> parts;
  if (!cache.enabled() || !cacheKeyParts(cl, self, parts)) return std::nullopt;
  const std::string key = ResultCache::key(parts);
  if (key_out) *key_out = key;
  auto hit = cache.lookup(key);
  if (!hit) return std::nullopt;
  hcc::filter::Filter filter;
  std::string message;
  if (loadFilter(cl, filter, message) != 0) return std::nullopt;
  // An OUT left over from an earlier run must not pass for this one's.
  llvm::sys::fs::remove(cl.out);
  return writeResult(cl, *hit, /*cached=*/true, !filter.empty());
}

}  // namespace hcc::rewriter

#include "shadow_tree.h"
#include "atomic_file.h"

#include "io/regular_file.hpp"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/raw_ostream.h>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <set>

namespace hcc::rewriter {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::string shadowPath(const std::string &root, const std::string &p) {
  std::string out = root;
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out + (p.empty() || p[0] != '/' ? "/" : "") + p;
}

namespace {

bool exists(const std::string &p, bool &regular) {
  struct stat st;
  if (::lstat(p.c_str(), &st) != 0) return false;
  regular = S_ISREG(st.st_mode);
  return true;
}

// Write-then-rename: replaces a symbolic link left by the mirroring.

// "/a/b/c" -> "/a/b"; "/a" -> "/".
std::string parentOf(const std::string &p) {
  std::string d = path::parent_path(p).str();
  return d.empty() ? "/" : d;
}

}  // namespace

bool writeShadowTree(const std::string &root, const std::vector<OutputFile> &files,
                     const std::string &main_dir, std::vector<std::string> &messages,
                     std::string &error) {
  // Nothing rewritten: the compiler reads every header from its own place,
  // unless one has a name without a directory (GCC's for a header beside a
  // source given without one): read through the source directory's
  // `-iquote .`, GCC would call it "./x.h"; its copy keeps "x.h".
  if (std::none_of(files.begin(), files.end(), [](const OutputFile &f) {
        return f.rewritten || f.name.find('/') == std::string::npos;
      }))
    return true;

  // The directories to mirror: those holding a copy (and the main file),
  // and their ancestors down from the deepest directory they all share.
  std::set<std::string> holders;
  holders.insert(main_dir);
  for (const OutputFile &f : files) holders.insert(parentOf(f.path));
  std::string common = *holders.begin();
  for (const std::string &d : holders) {
    while (common != "/" && !(d == common || (d.compare(0, common.size(), common) == 0 &&
                                              d.size() > common.size() && d[common.size()] == '/')))
      common = parentOf(common);
  }
  std::set<std::string> mirror;
  for (std::string d : holders) {
    for (;;) {
      mirror.insert(d);
      if (d == common || d == "/") break;
      d = parentOf(d);
    }
  }
  // The root directory itself is never mirrored: links to /usr, /proc …
  // would only invite a walk into them.
  mirror.erase("/");

  for (const std::string &d : mirror) {
    if (std::error_code ec = fs::create_directories(shadowPath(root, d))) {
      error = "cannot create " + shadowPath(root, d) + ": " + ec.message();
      return false;
    }
  }
  for (const OutputFile &f : files) {
    const std::string target = shadowPath(root, f.path);
    bool regular = false;
    if (exists(target, regular) && regular) {
      // Another source of this command was first; one text per path.
      std::string had;
      if (hcc::io::read_regular_file(target, hcc::io::kBuildFileLimit, had) && had != f.text)
        messages.push_back("hcc: " + f.name + ": kept the copy another source of this command "
                           "made (it is rewritten differently here)");
      continue;
    }
    if (std::error_code ec = fs::create_directories(parentOf(target))) {
      error = "cannot create " + parentOf(target) + ": " + ec.message();
      return false;
    }
    if (!writeFileAtomically(target, f.text, &error)) return false;
  }
  // How the compiler names each copy's original (tab-separated, one per
  // line), for the driver's dependency files: `include/geo/grid.hpp` as
  // without hcc, not the copy's path.
  {
    std::string names;
    for (const OutputFile &f : files) names += shadowPath(root, f.path) + "\t" + f.name + "\n";
    std::error_code ec;
    llvm::raw_fd_ostream os(root + ".names", ec, fs::OF_Append);
    if (!ec) os << names;
  }
  for (const std::string &d : mirror) {
    DIR *dir = ::opendir(d.c_str());
    if (!dir) continue;  // unreadable: lookups there fall through to later directories
    while (dirent *e = ::readdir(dir)) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      const std::string real = (d == "/" ? "" : d) + "/" + e->d_name;
      const std::string target = shadowPath(root, real);
      bool regular = false;
      if (exists(target, regular) || mirror.count(real)) continue;
      if (::symlink(real.c_str(), target.c_str()) != 0 && errno != EEXIST) {
        error = "cannot link " + target + ": " + std::strerror(errno);
        ::closedir(dir);
        return false;
      }
    }
    ::closedir(dir);
  }
  return true;
}

}  // namespace hcc::rewriter

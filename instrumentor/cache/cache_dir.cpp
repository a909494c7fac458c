#include "cache_dir.h"

#include "private_dir.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include "config/config.hpp"

namespace hcc::rewriter {

struct CacheDir::Handle {
  explicit Handle(int f) : fd(f) {}
  ~Handle() { ::close(fd); }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  int fd;
};

std::string CacheDir::pathFromEnvironment() {
  // A word other than the switch words leaves the cache on, silently as
  // before: this runs several times per compile.
  if (hcc::config::parse_switch(hcc::config::text("HCC_CACHE")) == false) return "";
  if (const char *d = hcc::config::nonempty("HCC_CACHE_DIR")) return d;
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/hcc";
  if (const char *h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/hcc";
  return "";
}

CacheDir CacheDir::fromEnvironment(std::string *refusal) {
  const std::string path = pathFromEnvironment();
  if (path.empty()) return CacheDir();
  return open(path, refusal);
}

CacheDir CacheDir::open(const std::string &path, std::string *refusal) {
  std::string error;
  bool refused = false;
  const int fd = rt::open_private_dir(path, error, rt::kOthersMayWrite, &refused);
  CacheDir dir;
  dir.path_ = path;
  if (fd < 0) {
    // A directory that cannot be made or opened (a read-only home, a link
    // someone else planted on the way) only costs the time the cache would
    // save, as before: no warning for every compile. One that is there and
    // not private may be someone's attempt: the user hears of it.
    if (refusal && refused)
      *refusal = "not using the instrumentation cache " + path + ": " + error + "; building without it";
    return dir;
  }
  dir.fd_ = std::make_shared<const Handle>(fd);
  return dir;
}

int CacheDir::fd() const { return fd_ ? fd_->fd : -1; }

CacheDir CacheDir::subdirectory(const std::string &name, std::string *refusal) const {
  CacheDir sub;
  sub.path_ = path_ + "/" + name;
  if (!fd_) return sub;
  std::string error;
  const int fd = rt::open_private_subdir_at(fd_->fd, name, error);
  if (fd < 0) {
    if (refusal) *refusal = "not using the instrumentation cache " + path_ + ": " + error + "; building without it";
    return sub;
  }
  sub.fd_ = std::make_shared<const Handle>(fd);
  return sub;
}

std::string CacheDir::pinnedPath() const { return fd_ ? "/proc/self/fd/" + std::to_string(fd_->fd) : ""; }

}  // namespace hcc::rewriter

// hcc driver — opening without following a planted link (see trusted_open.hpp).
#include "trusted_open.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <utility>
#include <vector>

namespace hcc::driver {
namespace {

constexpr int kMaxLinks = 40;  // as the kernel's own limit (ELOOP)
constexpr int kDirFlags = O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW;
constexpr int kFileFlags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW;

std::deque<std::string> components(const std::string &path) {
  std::deque<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    std::string part = path.substr(start, slash - start);
    if (!part.empty() && part != ".") parts.push_back(std::move(part));
    start = slash + 1;
  }
  return parts;
}

// The rule of runtime/core/safe_path.cpp (the kernel's protected_symlinks
// rule): a link is as trustworthy as whoever could have made it there.
bool trusted_link(const struct stat &link, const struct stat &holder) {
  return link.st_uid == ::geteuid() || link.st_uid == 0 || link.st_uid == holder.st_uid;
}

struct Dir {
  int fd = -1;
  ~Dir() {
    if (fd >= 0) ::close(fd);
  }
  void reset(int next) {
    if (fd >= 0) ::close(fd);
    fd = next;
  }
};

// A path as messages show it: "./x" is "x".
std::string shown(const std::string &path) { return path.rfind("./", 0) == 0 ? path.substr(2) : path; }

OpenedFile failed(int error, std::string why) {
  OpenedFile f;
  f.error = error;
  f.why = std::move(why);
  return f;
}

}  // namespace

OpenedFile::OpenedFile(OpenedFile &&o) noexcept { *this = std::move(o); }

OpenedFile &OpenedFile::operator=(OpenedFile &&o) noexcept {
  if (this != &o) {
    if (fd >= 0) ::close(fd);
    fd = std::exchange(o.fd, -1);
    st = o.st;
    holder = o.holder;
    holder_name = std::move(o.holder_name);
    error = o.error;
    link_refused = o.link_refused;
    why = std::move(o.why);
  }
  return *this;
}

OpenedFile::~OpenedFile() {
  if (fd >= 0) ::close(fd);
}

bool others_may_add_entries(const struct stat &holder) { return (holder.st_mode & (S_IWGRP | S_IWOTH)) != 0; }

OpenedFile open_through_trusted_links(const std::string &path) {
  if (path.empty()) return failed(ENOENT, std::strerror(ENOENT));
  Dir dir;
  dir.fd = ::open(path[0] == '/' ? "/" : ".", kDirFlags);
  if (dir.fd < 0) return failed(errno, std::strerror(errno));
  std::deque<std::string> todo = components(path);
  // "/" or ".": the directory itself, which the caller will find is no
  // regular file.
  if (todo.empty()) todo.push_back(".");
  // The real path of dir.fd as reached ("" for the root), for messages.
  std::string walked = path[0] == '/' ? "" : ".";
  int links = 0;
  while (!todo.empty()) {
    const std::string part = std::move(todo.front());
    todo.pop_front();
    const bool last = todo.empty();
    const std::string here = walked + "/" + part;
    int next = ::openat(dir.fd, part.c_str(), last ? kFileFlags : kDirFlags);
    if (next < 0 && (errno == ELOOP || (!last && errno == ENOTDIR))) {
      const int open_error = errno;
      struct stat link {}, holder {};
      if (::fstatat(dir.fd, part.c_str(), &link, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(link.st_mode))
        return failed(open_error, std::strerror(open_error));
      if (::fstat(dir.fd, &holder) != 0) return failed(errno, std::strerror(errno));
      if (!trusted_link(link, holder)) {
        OpenedFile f = failed(ELOOP, "'" + shown(here) + "' is a symbolic link owned by uid " +
                                         std::to_string(link.st_uid) +
                                         ", neither you, root nor the owner of its directory: not followed");
        f.link_refused = true;
        return f;
      }
      if (++links > kMaxLinks) return failed(ELOOP, std::strerror(ELOOP));
      std::vector<char> target(size_t(link.st_size > 0 ? link.st_size : 4096) + 1);
      const ssize_t n = ::readlinkat(dir.fd, part.c_str(), target.data(), target.size());
      if (n <= 0 || size_t(n) >= target.size())
        return failed(EIO, "cannot read the symbolic link '" + shown(here) + "'");
      const std::string to(target.data(), size_t(n));
      std::deque<std::string> more = components(to);
      // A link to its own directory ("." or "/"): the walk goes on from there.
      todo.insert(todo.begin(), more.begin(), more.end());
      if (last && more.empty()) todo.push_back(".");
      if (to[0] == '/') {  // else the target is looked up in the link's own directory
        const int root = ::open("/", kDirFlags);
        if (root < 0) return failed(errno, std::strerror(errno));
        dir.reset(root);
        walked.clear();
      }
      continue;
    }
    if (next < 0) return failed(errno, std::strerror(errno));
    if (!last) {
      dir.reset(next);
      walked = here;
      continue;
    }
    OpenedFile f;
    f.fd = next;
    if (::fstat(f.fd, &f.st) != 0 || ::fstat(dir.fd, &f.holder) != 0) return failed(errno, std::strerror(errno));
    // The directory as reached: for a name followed through links, where
    // the last one led.
    f.holder_name = walked.empty() ? "/" : shown(walked);
    return f;
  }
  return failed(ENOENT, std::strerror(ENOENT));  // not reached: the last component returns
}

}  // namespace hcc::driver

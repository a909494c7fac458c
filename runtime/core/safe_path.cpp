// hcc runtime — link-safe directories and files (see safe_path.hpp).
#include "safe_path.hpp"

#include "private_dir.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <deque>
#include <vector>

namespace hcc::rt {

namespace {

std::deque<std::string> split(const std::string &path) {
  std::deque<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    std::string part = path.substr(start, slash - start);
    if (!part.empty() && part != ".") parts.push_back(part);
    start = slash + 1;
  }
  return parts;
}

// Follows the kernel's protected_symlinks rule, everywhere.
bool trusted_link(const struct stat &link, const struct stat &holder) {
  return link.st_uid == geteuid() || link.st_uid == 0 || link.st_uid == holder.st_uid;
}

}  // namespace

FdGuard::~FdGuard() {
  if (fd >= 0) close(fd);
}

int open_dir_creating(const std::string &path, std::string &error, mode_t mode, bool create) {
  // O_PATH: a directory we may search but not list (mode 0711, usual for
  // home directories on shared machines) must still be walked through; the
  // *at calls below all accept such a handle.
  constexpr int kDirFlags = O_PATH | O_DIRECTORY | O_CLOEXEC;
  if (path.empty()) {
    error = "empty path";
    return -1;
  }
  FdGuard dir(open(path[0] == '/' ? "/" : ".", kDirFlags));
  if (dir.fd < 0) {
    error = std::strerror(errno);
    return -1;
  }
  std::deque<std::string> todo = split(path);
  std::string walked = path[0] == '/' ? "" : ".";  // for messages
  int links = 0;
  while (!todo.empty()) {
    const std::string part = todo.front();
    todo.pop_front();
    const std::string here = walked + "/" + part;
    int next = openat(dir.fd, part.c_str(), kDirFlags | O_NOFOLLOW);
    bool created = false;
    if (next < 0 && errno == ENOENT && create) {
      created = mkdirat(dir.fd, part.c_str(), mode) == 0;
      if (!created && errno != EEXIST) {
        error = "cannot create '" + here + "': " + std::strerror(errno);
        return -1;
      }
      next = openat(dir.fd, part.c_str(), kDirFlags | O_NOFOLLOW);
    }
    if (next < 0 && created && (errno == ELOOP || errno == ENOTDIR)) {
      // We made a directory here a moment ago: a link now at its name was
      // swapped in by someone else, whoever owns it.
      error = "'" + here + "' was replaced by something else right after it was created: refusing to follow it";
      return -1;
    }
    if (next < 0 && (errno == ELOOP || errno == ENOTDIR)) {
      struct stat st, holder;
      if (fstatat(dir.fd, part.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode)) {
        error = "'" + here + "' exists and is not a directory";
        return -1;
      }
      if (fstat(dir.fd, &holder) != 0 || !trusted_link(st, holder)) {
        error = "'" + here + "' is a symbolic link owned by uid " + std::to_string(st.st_uid) +
                ", neither you nor the owner of its directory: refusing to follow it (name the real directory "
                "instead)";
        return -1;
      }
      // Resolve the link ourselves, so every link in its target is judged too.
      if (++links > 40) {
        error = "too many symbolic links in '" + path + "'";
        return -1;
      }
      std::vector<char> target(std::size_t(st.st_size > 0 ? st.st_size : 4096) + 1);
      const ssize_t n = readlinkat(dir.fd, part.c_str(), target.data(), target.size());
      if (n <= 0 || std::size_t(n) >= target.size()) {
        error = "cannot read the symbolic link '" + here + "'";
        return -1;
      }
      const std::string to(target.data(), std::size_t(n));
      std::deque<std::string> more = split(to);
      todo.insert(todo.begin(), more.begin(), more.end());
      if (to[0] == '/') {
        FdGuard root(open("/", kDirFlags));
        if (root.fd < 0) {
          error = std::strerror(errno);
          return -1;
        }
        std::swap(dir.fd, root.fd);
      }
      walked = here + " -> " + to;
      continue;
    }
    if (next < 0) {
      error = "cannot open '" + here + "': " + std::strerror(errno);
      return -1;
    }
    close(dir.fd);
    dir.fd = next;
    walked = here;
  }
  if (faccessat(dir.fd, ".", W_OK | X_OK, 0) != 0) {
    error = std::strerror(errno);
    return -1;
  }
  const int fd = dir.fd;
  dir.fd = -1;
  return fd;
}

int make_new_dir_at(int parent, const std::string &base, std::string &name, std::string &error) {
  for (int n = 0; n < 10000; ++n) {
    name = n ? base + "-" + std::to_string(n) : base;
    if (mkdirat(parent, name.c_str(), 0777) != 0) {
      if (errno == EEXIST) continue;
      error = std::strerror(errno);
      return -1;
    }
    // We made it; O_NOFOLLOW in case it was swapped for a link since.
    const int fd = openat(parent, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) error = std::strerror(errno);
    return fd;
  }
  name = base;
  error = "too many directories with this name";
  return -1;
}

namespace {

// A directory of ours nobody else may enter or write into: what
// make_private_dir_at made (someone who can rename in the parent could have
// swapped the name for a directory of theirs since).
bool is_private_dir(int fd, std::string &error) {
  struct stat st;
  if (fstat(fd, &st) != 0) {
    error = std::strerror(errno);
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    error = "not a directory";
    return false;
  }
  // The rule of private_dir.hpp, with no access at all for group or others.
  error = untrusted_because(st, 077);
  return error.empty();
}

std::string random_suffix() {
  unsigned char bytes[6] = {};
  if (getrandom(bytes, sizeof bytes, 0) != ssize_t(sizeof bytes)) {
    // No entropy source: names are still never reused (mkdirat fails on any).
    static unsigned counter = 0;
    const unsigned long long mix = (unsigned long long)getpid() * 1000003ull + (unsigned long long)time(nullptr) + ++counter;
    for (std::size_t i = 0; i < sizeof bytes; ++i) bytes[i] = (unsigned char)(mix >> (8 * i));
  }
  static const char kDigits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s;
  for (unsigned char b : bytes) s += kDigits[b % 36];
  return s;
}

}  // namespace

int make_private_dir_at(int parent, const std::string &base, std::string &name, std::string &error) {
  for (int n = 0; n < 100; ++n) {
    name = base + "-" + random_suffix();
    if (mkdirat(parent, name.c_str(), 0700) != 0) {
      if (errno == EEXIST) continue;
      error = std::strerror(errno);
      return -1;
    }
    // Swapped for something else the moment it was made (someone who can
    // rename in `parent`): left to them, another name is tried.
    const int fd = open_private_dir_at(parent, name, error);
    if (fd >= 0) return fd;
  }
  error = "no private directory could be made (" + (error.empty() ? std::string("no free name") : error) + ")";
  return -1;
}

int open_private_dir_at(int parent, const std::string &name, std::string &error) {
  FdGuard fd(openat(parent, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (fd.fd < 0) {
    error = std::strerror(errno);
    return -1;
  }
  if (!is_private_dir(fd.fd, error)) return -1;
  const int out = fd.fd;
  fd.fd = -1;
  return out;
}

int create_file_at(int dir, const std::string &base, std::string &name, std::string &error, mode_t mode) {
  for (int n = 0; n < 1000; ++n) {
    name = n ? base + "." + std::to_string(n) : base;
    const int fd = openat(dir, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd >= 0) return fd;
    if (errno != EEXIST) {
      error = std::strerror(errno);
      return -1;
    }
  }
  error = "too many files with this name";
  return -1;
}

bool write_all(int fd, const std::string &text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += std::size_t(n);
  }
  return true;
}

}  // namespace hcc::rt

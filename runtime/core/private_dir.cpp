// hcc — private directories and the files in them (see private_dir.hpp).
#include "private_dir.hpp"

#include "safe_path.hpp"
#include "io/regular_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace hcc::rt {

std::string untrusted_because(const struct stat &st, mode_t forbidden) {
  if (st.st_uid != geteuid()) return "owned by uid " + std::to_string(st.st_uid);
  if (st.st_mode & forbidden)
    return (forbidden & (S_IRGRP | S_IROTH)) ? "readable or writable by group or others"
                                             : "writable by group or others";
  return "";
}

namespace {

// The rule on an opened directory handle; closes it and returns -1 when it
// fails.
int checked(int fd, std::string &error, mode_t forbidden) {
  struct stat st;
  if (fstat(fd, &st) != 0) {
    error = std::strerror(errno);
  } else if (!S_ISDIR(st.st_mode)) {
    error = "not a directory";
  } else if (std::string why = untrusted_because(st, forbidden); !why.empty()) {
    error = why;
  } else {
    return fd;
  }
  close(fd);
  return -1;
}

}  // namespace

int open_private_dir(const std::string &path, std::string &error, mode_t forbidden, bool *refused) {
  if (refused) *refused = false;
  const int fd = open_dir_creating(path, error, 0700);
  if (fd < 0) return -1;
  const int ok = checked(fd, error, forbidden);
  if (ok < 0 && refused) *refused = true;
  return ok;
}

int open_private_subdir_at(int parent, const std::string &name, std::string &error, mode_t forbidden) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
    error = "'" + name + "' is not a single directory name";
    return -1;
  }
  constexpr int kFlags = O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
  int fd = openat(parent, name.c_str(), kFlags);
  if (fd < 0 && errno == ENOENT) {
    if (mkdirat(parent, name.c_str(), 0700) != 0 && errno != EEXIST) {
      error = "cannot create '" + name + "': " + std::strerror(errno);
      return -1;
    }
    fd = openat(parent, name.c_str(), kFlags);
  }
  if (fd < 0) {
    // ELOOP/ENOTDIR: a link or a file where the directory belongs.
    error = "cannot open '" + name + "': " + std::strerror(errno);
    return -1;
  }
  const int ok = checked(fd, error, forbidden);
  if (ok < 0) error = "'" + name + "' " + error;
  return ok;
}

bool read_private_file_at(int dir, const std::string &name, std::string &out, std::string &error,
                          size_t max_bytes, int *fd_out) {
  FdGuard fd(openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (fd.fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fd.fd, &st) != 0) {
    error = std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    error = "not a regular file";
    return false;
  }
  if (std::string why = untrusted_because(st); !why.empty()) {
    error = why;
    return false;
  }
  if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
    error = "larger than " + std::to_string(max_bytes) + " bytes";
    return false;
  }
  // The reading itself: the one bounded reader (io/regular_file.hpp), on
  // this same descriptor.
  if (!io::read_regular_fd(fd.fd, max_bytes, out, &error)) return false;
  if (fd_out) {
    *fd_out = fd.fd;
    fd.fd = -1;
  }
  return true;
}

bool private_file_exists_at(int dir, const std::string &name) {
  struct stat st;
  return fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
         untrusted_because(st).empty();
}

bool replace_file_at(int dir, const std::string &name, const std::string &text, std::string &error,
                     mode_t mode) {
  std::string tmp;
  FdGuard fd(create_file_at(dir, name + ".tmp" + std::to_string(getpid()), tmp, error, mode));
  if (fd.fd < 0) {
    error = "cannot create a temporary for '" + name + "': " + error;
    return false;
  }
  const bool wrote = write_all(fd.fd, text);
  const int write_errno = errno;
  const bool closed = close(fd.fd) == 0;
  fd.fd = -1;
  if (!wrote || !closed) {
    error = "cannot write '" + tmp + "': " + std::strerror(wrote ? errno : write_errno);
    unlinkat(dir, tmp.c_str(), 0);
    return false;
  }
  if (renameat(dir, tmp.c_str(), dir, name.c_str()) != 0) {
    error = "cannot rename '" + tmp + "' to '" + name + "': " + std::strerror(errno);
    unlinkat(dir, tmp.c_str(), 0);
    return false;
  }
  return true;
}

}  // namespace hcc::rt

// hcc io — bounded reads of regular files (see regular_file.hpp).
#include "regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace hcc::io {

const char *file_kind(unsigned mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "another kind of file";
}

namespace {

bool fail(std::string &out, std::string *why, std::string reason) {
  out.clear();
  if (why) *why = std::move(reason);
  return false;
}

}  // namespace

std::string size_text(size_t bytes) {
  if (bytes >= (size_t(1) << 20) && bytes % (size_t(1) << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

bool read_regular_fd(int fd, size_t limit, std::string &out, std::string *why) {
  out.clear();
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail(out, why, std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return fail(out, why, std::string("not a regular file (") + file_kind(st.st_mode) + ")");
  const std::string too_large = "larger than the " + size_text(limit) + " limit";
  if (st.st_size > 0 && static_cast<unsigned long long>(st.st_size) > limit) return fail(out, why, too_large);
  // /proc files say 0: start small and grow, never past limit + 1.
  out.reserve(st.st_size > 0 ? static_cast<size_t>(st.st_size) : 4096);
  char buf[65536];
  for (;;) {
    const size_t room = limit - out.size() + 1;  // one byte past the limit tells "too large"
    const ssize_t n = ::read(fd, buf, room < sizeof buf ? room : sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(out, why, std::strerror(errno));
    }
    if (n == 0) return true;
    out.append(buf, static_cast<size_t>(n));
    if (out.size() > limit) return fail(out, why, too_large);
  }
}

bool read_regular_file(const std::string &path, size_t limit, std::string &out, std::string *why) {
  // O_NONBLOCK: opening a FIFO for reading does not wait for a writer (and
  // is refused right after); on a regular file the flag changes nothing.
  // O_NOCTTY: a terminal named here must not become ours.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return fail(out, why, std::strerror(errno));
  const bool ok = read_regular_fd(fd, limit, out, why);
  ::close(fd);
  return ok;
}

}  // namespace hcc::io

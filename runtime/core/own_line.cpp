#include "own_line.hpp"

#include <fcntl.h>
#include <stdio_ext.h>  // __fpending
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

namespace hcc::rt {

namespace {

// The last byte of the regular file open as fd 2, or -1. fd 2 is usually
// open for writing only, so it is read through a second, read-only opening.
int last_byte_of_stderr_file() {
  struct stat st;
  if (fstat(2, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return -1;
  unsigned char c;
  if (pread(2, &c, 1, st.st_size - 1) == 1) return c;
  const int fd = open("/proc/self/fd/2", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return -1;
  const ssize_t n = pread(fd, &c, 1, st.st_size - 1);
  close(fd);
  return n == 1 ? c : -1;
}

}  // namespace

void start_own_line() {
  struct stat out, err;
  if (fstat(1, &out) != 0 || fstat(2, &err) != 0) return;
  if (out.st_dev != err.st_dev || out.st_ino != err.st_ino) return;
  // Other threads may still print: look at the buffer under its lock, but
  // never wait for it (a thread blocked writing to a full pipe holds it;
  // exit's own flush does not wait either). Not had: the buffer is left to
  // exit, and only a regular file's last byte decides.
  int last_pending = -1;
  if (ftrylockfile(stdout) == 0) {
    const std::size_t pending = __fpending(stdout);
#ifdef __GLIBC__
    if (pending > 0 && stdout->_IO_write_ptr > stdout->_IO_write_base)
      last_pending = static_cast<unsigned char>(stdout->_IO_write_ptr[-1]);
#endif
    if (pending > 0) fflush_unlocked(stdout);
    funlockfile(stdout);
  }
  int last = S_ISREG(err.st_mode) ? last_byte_of_stderr_file() : last_pending;
  if (last >= 0 && last != '\n') {
    std::fputc('\n', stderr);
    std::fflush(stderr);
  }
}

}  // namespace hcc::rt

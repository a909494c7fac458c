// hcc-report -o FILE through a temporary renamed onto the name (see
// output_file.hpp).
#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <stdexcept>
#include <streambuf>

#include "io/regular_file.hpp"  // file_kind

namespace hcc::report {

namespace {

// A stream buffer writing to a descriptor; the first failed write's errno
// is kept for the message and later writes are dropped.
class FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return error_; }
  uint64_t written() const { return written_ + static_cast<uint64_t>(pptr() - pbase()); }
  bool drain() {
    for (const char *p = pbase(); p < pptr() && !error_;) {
      const ssize_t n = ::write(fd_, p, static_cast<size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        break;
      }
      p += n;
      written_ += static_cast<uint64_t>(n);
    }
    setp(buf_, buf_ + sizeof buf_);
    return !error_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  int fd_;
  int error_ = 0;
  uint64_t written_ = 0;
  char buf_[1 << 16];
};

// Splits "a/b/c.json" into "a/b" and "c.json" ("." for a bare name).
std::pair<std::string, std::string> dir_and_base(const std::string &path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

std::string random_suffix() {
  static std::mt19937_64 rng{std::random_device{}()};
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s;
  for (int i = 0; i < 8; ++i) s += kChars[rng() % (sizeof kChars - 1)];
  return s;
}

}  // namespace

struct OutputFile::Impl {
  std::string path, base, tmp;
  int dir = -1, fd = -1;
  bool committed = false;
  std::unique_ptr<FdBuffer> buf;
  std::ostream out{nullptr};

  [[noreturn]] void fail(const std::string &why) const { throw std::runtime_error("cannot write " + path + ": " + why); }
};

OutputFile::OutputFile(const std::string &path) : impl_(new Impl) {
  Impl &m = *impl_;
  m.path = path;
  auto [dir, base] = dir_and_base(path);
  m.base = base;
  if (base.empty() || base == "." || base == "..") m.fail("it names a directory");
  // The directory is the user's choice (links on the way are followed);
  // from here on everything goes through this handle.
  m.dir = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (m.dir < 0) m.fail(std::strerror(errno));
  struct stat st {};
  mode_t mode = 0666;  // less the umask, as for any new file
  bool replacing = false;
  if (::fstatat(m.dir, base.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISLNK(st.st_mode)) m.fail("it is a symbolic link (-o does not write through links; name the file it leads to)");
    if (!S_ISREG(st.st_mode)) m.fail(std::string("it is ") + io::file_kind(st.st_mode) + ", not a regular file");
    if (st.st_uid != ::geteuid())
      m.fail("it belongs to uid " + std::to_string(st.st_uid) + " (-o replaces only your own files)");
    mode = st.st_mode & 07777;
    replacing = true;
  } else if (errno != ENOENT) {
    m.fail(std::strerror(errno));
  }
  // A hidden temporary beside the name; a name already taken (by a planted
  // file or link, or another hcc-report) is skipped, never opened.
  for (int attempt = 0; attempt < 100 && m.fd < 0; ++attempt) {
    m.tmp = "." + base + ".tmp-" + random_suffix();
    m.fd = ::openat(m.dir, m.tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (m.fd < 0 && errno != EEXIST) m.fail(std::strerror(errno));
  }
  if (m.fd < 0) m.fail("no free temporary name beside it");
  if (replacing) ::fchmod(m.fd, mode);  // the replaced file's mode, not the umask's
  m.buf = std::make_unique<FdBuffer>(m.fd);
  m.out.rdbuf(m.buf.get());
}

OutputFile::~OutputFile() {
  Impl &m = *impl_;
  if (m.fd >= 0) ::close(m.fd);
  if (!m.committed && !m.tmp.empty() && m.dir >= 0) ::unlinkat(m.dir, m.tmp.c_str(), 0);
  if (m.dir >= 0) ::close(m.dir);
}

std::ostream &OutputFile::stream() { return impl_->out; }

uint64_t OutputFile::bytes_written() const { return impl_->buf->written(); }

void OutputFile::commit() {
  Impl &m = *impl_;
  m.out.flush();
  if (!m.buf->drain() || !m.out) m.fail(m.buf->error() ? std::strerror(m.buf->error()) : "write failed");
  const int fd = m.fd;
  m.fd = -1;
  if (::close(fd) != 0) m.fail(std::strerror(errno));
  if (::renameat(m.dir, m.tmp.c_str(), m.dir, m.base.c_str()) != 0) m.fail(std::strerror(errno));
  m.committed = true;
}

}  // namespace hcc::report

// hcc — write a Profile as a .cubex file: a POSIX ustar archive holding
// anchor.xml plus N.index / N.data per metric, written atomically.
//
// Format choices (see README.md):
//  - Every metric uses the dense index (format 3): N.index is the 18-byte
//    header only and N.data has one row per call path. Simple, and CubeLib
//    itself uses dense for inclusive metrics.
//  - Location Ids and data columns follow location_file_order() (document
//    order of the system tree), see cubex.hpp.
//  - The 512 rule (CubeLib's tar reader swallows the member after one whose
//    size is a multiple of 512): anchor.xml gets one trailing newline when it
//    would hit the rule. N.index is always 18 bytes. N.data is 10 + 8*k bytes,
//    and 10 + 8k is never a multiple of 512 (512 | 10 + 8k would need
//    8 | 502). The writer still checks every member size and refuses to
//    write a file CubeLib would misread.
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <functional>
#include <stdexcept>
#include <string>

#include "cfg_member.hpp"
#include "cube_format.hpp"
#include "cubex.hpp"

namespace hcc::profile {
namespace {

// Carries the reason; write_cubex prefixes the destination path.
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string errno_text(int err) { return std::strerror(err); }

class TarOut {
 public:
  TarOut(int fd, const std::string &tmp) : tmp_(tmp), a_(archive_write_new()) {
    if (!a_) throw WriteError("out of memory (archive_write_new)");
    if (archive_write_set_format_ustar(a_) != ARCHIVE_OK || archive_write_add_filter_none(a_) != ARCHIVE_OK ||
        archive_write_open_fd(a_, fd) != ARCHIVE_OK)
      fail("cannot start tar archive");
  }
  ~TarOut() {
    if (a_) archive_write_free(a_);  // also closes on the error path; fd is ours
  }
  TarOut(const TarOut &) = delete;
  TarOut &operator=(const TarOut &) = delete;

  // Starts a member of exactly `size` bytes; callers then put() that many.
  void begin(const std::string &name, std::uint64_t size) {
    if (size % detail::kTarBlock == 0)
      throw WriteError("internal error: member " + name + " would be " + std::to_string(size) +
                       " bytes, a multiple of 512, which CubeLib misreads");
    archive_entry *e = archive_entry_new();
    if (!e) throw WriteError("out of memory (archive_entry_new)");
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_size(e, static_cast<la_int64_t>(size));
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_mtime(e, std::time(nullptr), 0);
    const int rc = archive_write_header(a_, e);
    archive_entry_free(e);
    if (rc != ARCHIVE_OK) fail("cannot add " + name);
    member_ = name;
  }
  void put(const std::string &bytes) {
    if (bytes.empty()) return;
    const la_ssize_t n = archive_write_data(a_, bytes.data(), bytes.size());
    if (n < 0 || static_cast<std::size_t>(n) != bytes.size()) fail("cannot write " + member_);
  }
  void close() {
    if (archive_write_close(a_) != ARCHIVE_OK) fail("cannot finish tar archive");
  }

 private:
  [[noreturn]] void fail(const std::string &what) {
    const int err = archive_errno(a_);
    const char *msg = archive_error_string(a_);
    std::string why = msg ? msg : (err ? errno_text(err) : "unknown libarchive error");
    throw WriteError(what + " in " + tmp_ + ": " + why);
  }
  std::string tmp_;
  archive *a_;
  std::string member_;
};

void write_metric(TarOut &tar, const Profile &p, std::size_t m, const std::vector<int> &order,
                  const std::vector<int> &columns) {
  const Metric &met = p.metrics[m];
  const std::string id = std::to_string(m);
  const std::string index = detail::dense_index();
  tar.begin(id + ".index", index.size());
  tar.put(index);

  // INCLUSIVE metrics store subtree sums, EXCLUSIVE ones the model's values.
  std::vector<double> incl;
  const std::vector<double> &values = met.cube_type == CubeType::Inclusive ? (incl = inclusive(p, m)) : p.excl[m];
  const std::size_t nl = p.nloc();
  tar.begin(id + ".data", detail::kDataMarkerLen + 8ull * order.size() * nl);
  std::string buf(detail::kDataMarker, detail::kDataMarkerLen);
  constexpr std::size_t kFlush = 1 << 16;  // stream, never hold a whole matrix twice
  buf.reserve(kFlush + 8 * nl);
  for (int c : order) {
    const double *row = &values[static_cast<std::size_t>(c) * nl];
    for (int l : columns) detail::put_le(buf, detail::encode(row[l], met.dtype), 8);
    if (buf.size() >= kFlush) {
      tar.put(buf);
      buf.clear();
    }
  }
  tar.put(buf);
}

void write_archive(const Profile &p, int fd, const std::string &name, bool flush = true) {
  validate(p);
  std::string anchor = anchor_xml(p);
  if (anchor.size() % detail::kTarBlock == 0) anchor.push_back('\n');  // the 512 rule
  const std::vector<int> excl_order = exclusive_row_order(p);
  const std::vector<int> incl_order = inclusive_row_order(p);
  const std::vector<int> columns = location_file_order(p);  // same order as anchor.xml's Ids
  {
    TarOut tar(fd, name);
    tar.begin("anchor.xml", anchor.size());
    tar.put(anchor);
    for (std::size_t m = 0; m < p.metrics.size(); ++m)
      write_metric(tar, p, m, p.metrics[m].cube_type == CubeType::Inclusive ? incl_order : excl_order, columns);
    if (!p.preds.empty()) {  // control flow: a member CubeLib ignores (cfg_member.hpp)
      const std::string cfg = detail::cfg_member_text(p, columns);
      tar.begin(detail::kCfgMember, cfg.size());
      tar.put(cfg);
    }
    tar.close();
  }
  // The data must be on disk before a rename makes it the profile;
  // otherwise a crash could leave a complete-looking but empty file.
  if (flush && ::fsync(fd) != 0) {
    const int err = errno;
    throw WriteError("cannot flush " + name + ": " + errno_text(err));
  }
}

// Removes the temporary file unless the rename went through.
struct TempGuard {
  int dirfd = -1;
  std::string name;  // in dirfd
  std::string shown;  // in messages
  int fd = -1;
  bool done = true;
  ~TempGuard() {
    if (fd >= 0) ::close(fd);
    if (!done) ::unlinkat(dirfd, name.c_str(), 0);
  }
};

void write_to(const Profile &p, int dirfd, const std::string &dir, const std::string &name) {
  TempGuard tmp;
  tmp.dirfd = dirfd;
  const std::string base = name + ".tmp." + std::to_string(::getpid());
  // Created exclusively and never through a symbolic link: a link planted at
  // the temporary name must not make us truncate the file it points to.
  for (int n = 0; tmp.fd < 0; ++n) {
    tmp.name = n ? base + "." + std::to_string(n) : base;
    tmp.shown = dir + "/" + tmp.name;
    tmp.fd = ::openat(dirfd, tmp.name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (tmp.fd < 0 && (errno != EEXIST || n >= 100)) {
      const int err = errno;
      throw WriteError("cannot create temporary file " + tmp.shown + ": " + errno_text(err));
    }
  }
  tmp.done = false;
  write_archive(p, tmp.fd, tmp.shown);
  const int fd = tmp.fd;
  tmp.fd = -1;
  if (::close(fd) != 0) {
    const int err = errno;
    throw WriteError("cannot close " + tmp.shown + ": " + errno_text(err));
  }
  // renameat replaces a symbolic link at `name` itself, never its target.
  if (::renameat(dirfd, tmp.name.c_str(), dirfd, name.c_str()) != 0) {
    const int err = errno;
    throw WriteError("cannot rename " + tmp.shown + " to " + dir + "/" + name + ": " + errno_text(err));
  }
  tmp.done = true;
}

}  // namespace

void write_cubex(const Profile &p, const std::string &path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  try {
    const int dirfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0) {
      const int err = errno;
      throw WriteError("cannot open directory " + dir + ": " + errno_text(err));
    }
    try {
      write_to(p, dirfd, dir, name);
    } catch (...) {
      ::close(dirfd);
      throw;
    }
    ::close(dirfd);
  } catch (const std::exception &e) {
    throw std::runtime_error("cannot write " + path + ": " + e.what());
  }
}

void write_cubex_at(const Profile &p, int dirfd, const std::string &dir, const std::string &name) {
  try {
    write_to(p, dirfd, dir, name);
  } catch (const std::exception &e) {
    throw std::runtime_error("cannot write " + dir + "/" + name + ": " + e.what());
  }
}

void write_cubex_fd(const Profile &p, int fd, const std::string &shown, bool flush) {
  try {
    write_archive(p, fd, shown, flush);
  } catch (const std::exception &e) {
    throw std::runtime_error("cannot write " + shown + ": " + e.what());
  }
}

}  // namespace hcc::profile

// The files of an OTF2 archive, checked before OTF2 opens them (see
// trace_archive.hpp).
#include "trace_archive.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "io/regular_file.hpp"

namespace hcc::report {

namespace {

[[noreturn]] void refuse(const std::string &path, const struct stat &st, const char *wanted) {
  throw std::runtime_error(path + ": is " + io::file_kind(st.st_mode) + ", not " + wanted);
}

// Closes a descriptor and a directory stream when the scan ends.
struct DirCloser {
  DIR *d = nullptr;
  ~DirCloser() {
    if (d) ::closedir(d);
  }
};

// Every entry of the archive's directory <name>/ (opened without following a
// link, entries looked at without following one) must be a regular file;
// the sizes of the .evt and .def files are summed.
void check_location_files(const std::string &dir, TraceArchiveFiles &files) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return;  // OTF2 says what is missing
    struct stat st {};
    if (::lstat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) refuse(dir, st, "a directory");
    throw std::runtime_error(dir + ": " + std::strerror(errno));
  }
  DirCloser closer{::fdopendir(fd)};
  if (!closer.d) {
    ::close(fd);
    throw std::runtime_error(dir + ": " + std::strerror(errno));
  }
  while (const dirent *e = ::readdir(closer.d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st {};
    if (::fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone since readdir
    if (!S_ISREG(st.st_mode)) refuse(dir + "/" + name, st, "a regular file");
    auto ends_with = [&](const char *ext) { return name.size() > 4 && name.compare(name.size() - 4, 4, ext) == 0; };
    if (ends_with(".evt")) files.event_bytes += static_cast<uint64_t>(st.st_size);
    if (ends_with(".def")) files.local_def_bytes += static_cast<uint64_t>(st.st_size);
  }
}

}  // namespace

TraceArchiveFiles check_trace_archive(const std::string &anchor) {
  struct stat st {};
  if (::stat(anchor.c_str(), &st) != 0) throw std::runtime_error(anchor + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) refuse(anchor, st, "a regular file");
  const std::string ext = ".otf2";
  if (anchor.size() <= ext.size() || anchor.compare(anchor.size() - ext.size(), ext.size(), ext) != 0)
    throw std::runtime_error(anchor + ": not an OTF2 anchor file (its name ends in .otf2)");
  // OTF2 names the archive's other files after the anchor: <stem>.def and
  // the directory <stem>/ beside it.
  const std::string stem = anchor.substr(0, anchor.size() - ext.size());
  TraceArchiveFiles files;
  if (::lstat((stem + ".def").c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) refuse(stem + ".def", st, "a regular file");
    files.global_def_bytes = static_cast<uint64_t>(st.st_size);
  }
  check_location_files(stem, files);
  return files;
}

}  // namespace hcc::report

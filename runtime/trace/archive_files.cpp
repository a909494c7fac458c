// hcc tracer — the archive's names in the output directory (see archive_files.hpp).
#include "trace/archive_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/safe_path.hpp"

namespace hcc::rt::trace {

namespace {

enum class Kind { Absent, Link, Other };

Kind kind_of(int dirfd, const std::string &name) {
  struct stat st;
  if (fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Kind::Absent;
  return S_ISLNK(st.st_mode) ? Kind::Link : Kind::Other;
}

bool ends_with(const std::string &s, const char *tail) {
  const std::size_t n = std::strlen(tail);
  return s.size() > n && s.compare(s.size() - n, n, tail) == 0;
}

// An earlier run's archive of the same name (HCC_OUTPUT_DIR reused,
// HCC_OVERWRITE=1): only the files OTF2 writes, and only inside a real
// directory (the caller refused links at these names already; O_NOFOLLOW in
// case one was put there since).
void remove_old_archive(int dirfd, const std::string &name) {
  unlinkat(dirfd, (name + ".otf2").c_str(), 0);
  unlinkat(dirfd, (name + ".def").c_str(), 0);
  const int sub = openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (sub < 0) return;
  DIR *d = fdopendir(sub);
  if (!d) {
    close(sub);
    return;
  }
  std::vector<std::string> files;
  while (dirent *e = readdir(d)) {
    const std::string f = e->d_name;
    if (ends_with(f, ".evt") || ends_with(f, ".def") || ends_with(f, ".snap")) files.push_back(f);
  }
  for (const std::string &f : files) unlinkat(sub, f.c_str(), 0);  // still open: closedir closes it
  closedir(d);  // closes `sub`
  unlinkat(dirfd, name.c_str(), AT_REMOVEDIR);
}

// Creates `name` empty, exclusively, never through a link; errno on failure.
bool create_empty(int dirfd, const std::string &name) {
  const int fd = openat(dirfd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return false;
  close(fd);
  return true;
}

}  // namespace

ArchiveDir::~ArchiveDir() {
  if (fd >= 0) close(fd);
}

bool open_archive_dir(const std::string &dir, ArchiveDir &out, std::string &error) {
  std::string why;
  out.fd = open_dir_creating(dir, why);
  out.shown = dir;
  if (out.fd < 0) {
    error = "cannot open output directory '" + dir + "': " + why;
    return false;
  }
  // /proc/self/fd/N of an O_PATH handle leads to the very directory opened;
  // without /proc (some containers), OTF2 gets the name.
  const std::string proc = "/proc/self/fd/" + std::to_string(out.fd);
  struct stat by_handle, by_proc;
  const bool same = fstat(out.fd, &by_handle) == 0 && stat(proc.c_str(), &by_proc) == 0 &&
                    by_handle.st_dev == by_proc.st_dev && by_handle.st_ino == by_proc.st_ino;
  out.for_otf2 = same ? proc : dir;
  return true;
}

std::string claim_archive_name(const ArchiveDir &dir, const std::string &base, bool overwrite, std::string &error) {
  for (int n = 0; n < 100000; ++n) {
    const std::string name = n ? base + "-" + std::to_string(n) : base;
    bool taken = false;
    for (const std::string &f : {name, name + ".otf2", name + ".def"}) {
      const Kind k = kind_of(dir.fd, f);
      if (k == Kind::Link) {
        error = "'" + dir.shown + "/" + f +
                "' is a symbolic link: refusing to write the trace through it (remove it, or set HCC_OUTPUT_DIR "
                "to another directory)";
        return "";
      }
      taken |= k == Kind::Other;
    }
    if (taken && overwrite && n == 0) {
      remove_old_archive(dir.fd, name);
      taken = false;
    }
    if (taken) continue;  // an earlier run's archive is kept
    if (!create_empty(dir.fd, name + ".otf2")) {
      if (errno == EEXIST) continue;  // another process took the name meanwhile
      error = "cannot create '" + dir.shown + "/" + name + ".otf2': " + std::strerror(errno);
      return "";
    }
    if (!create_empty(dir.fd, name + ".def")) {
      const int e = errno;
      unlinkat(dir.fd, (name + ".otf2").c_str(), 0);
      if (e == EEXIST) continue;
      error = "cannot create '" + dir.shown + "/" + name + ".def': " + std::strerror(e);
      return "";
    }
    return name;
  }
  error = "too many trace archives named " + base + " in '" + dir.shown + "'";
  return "";
}

}  // namespace hcc::rt::trace

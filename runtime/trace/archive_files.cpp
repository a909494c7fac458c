// hcc tracer — the files of an OTF2 archive (see archive_files.hpp).
#include "trace/archive_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/output.hpp"
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

// An archive named `name` in `dirfd`: an earlier run's (HCC_OUTPUT_DIR
// reused, HCC_OVERWRITE=1) or one abandoned in the private directory. Only
// the files OTF2 writes, and only inside a real directory (the caller refused
// links at these names already; O_NOFOLLOW in case one was put there since).
void remove_archive_files(int dirfd, const std::string &name) {
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

// Creates `name` empty, exclusively, never through a link; records its
// device and inode. errno on failure.
bool create_empty(int dirfd, const std::string &name, dev_t &dev, ino_t &ino) {
  const int fd = openat(dirfd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return false;
  struct stat st;
  const bool ok = fstat(fd, &st) == 0;
  if (ok) dev = st.st_dev, ino = st.st_ino;
  close(fd);
  return ok;
}

// The archive's three pieces, in the order they are published: the event
// directory, the global definitions, the anchor last (readers open it first).
const char *const kPieces[3] = {"", ".def", ".otf2"};

// Whether `piece` in the output directory still holds what we claimed it with.
bool still_ours(const ArchiveDir &dir, const Claim &claim, int i, std::string *what_now) {
  struct stat st;
  const std::string piece = claim.name + kPieces[i];
  if (fstatat(dir.fd, piece.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (what_now) *what_now = "it is gone";
    return false;
  }
  // Also the type and the owner: an inode number freed by someone removing
  // ours can come straight back as their link.
  const bool type_ok = i == 0 ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
  if (type_ok && st.st_uid == geteuid() && st.st_dev == claim.dev[i] && st.st_ino == claim.ino[i]) return true;
  if (what_now)
    *what_now = S_ISLNK(st.st_mode) ? "now a symbolic link owned by uid " + std::to_string(st.st_uid)
                                    : "now a file owned by uid " + std::to_string(st.st_uid);
  return false;
}

// Undoes a claim: the names that still hold what we put there.
void release(const ArchiveDir &dir, const Claim &claim) {
  for (int i = 2; i >= 0; --i)
    if (still_ours(dir, claim, i, nullptr))
      unlinkat(dir.fd, (claim.name + kPieces[i]).c_str(), i == 0 ? AT_REMOVEDIR : 0);
}

std::string proc_path(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

// /proc/self/fd/N of an O_PATH handle leads to the very directory opened.
bool proc_leads_to(int fd) {
  struct stat by_handle, by_proc;
  return fstat(fd, &by_handle) == 0 && stat(proc_path(fd).c_str(), &by_proc) == 0 &&
         by_handle.st_dev == by_proc.st_dev && by_handle.st_ino == by_proc.st_ino;
}

}  // namespace

ArchiveDir::~ArchiveDir() {
  if (fd >= 0) close(fd);
  if (priv >= 0) close(priv);
}

bool open_archive_dir(ArchiveDir &out, std::string &error) {
  out.fd = output_dir_handle(out.shown, &error);
  if (out.fd < 0) return false;
  // OTF2 opens its files by name: only /proc/self/fd/N makes that name one
  // nobody else can redirect (some containers have no /proc).
  if (!proc_leads_to(out.fd)) {
    error = "/proc/self/fd is not available, and OTF2 cannot be given the output directory safely without it";
    return false;
  }
  return true;
}

bool claim_archive(ArchiveDir &dir, const std::string &base, bool overwrite, Claim &claim, std::string &error) {
  claim = Claim{};
  for (int n = 0; n < 100000; ++n) {
    const std::string name = n ? base + "-" + std::to_string(n) : base;
    bool taken = false;
    for (const std::string &f : {name, name + ".otf2", name + ".def"}) {
      const Kind k = kind_of(dir.fd, f);
      if (k == Kind::Link) {
        error = "'" + dir.shown + "/" + f +
                "' is a symbolic link: refusing to write the trace through it (remove it, or set HCC_OUTPUT_DIR "
                "to another directory)";
        return false;
      }
      taken |= k == Kind::Other;
    }
    if (taken && overwrite && n == 0) {
      remove_archive_files(dir.fd, name);
      taken = false;
    }
    if (taken) continue;  // an earlier run's archive is kept
    // The anchor first: whoever creates it owns the name.
    Claim c;
    c.name = name;
    if (!create_empty(dir.fd, name + ".otf2", c.dev[2], c.ino[2])) {
      if (errno == EEXIST) continue;  // another process took the name meanwhile
      error = "cannot create '" + dir.shown + "/" + name + ".otf2': " + std::strerror(errno);
      return false;
    }
    int e = 0;
    std::string why;
    if (!create_empty(dir.fd, name + ".def", c.dev[1], c.ino[1])) {
      e = errno;
      why = name + ".def': " + std::strerror(e);
    } else if (mkdirat(dir.fd, name.c_str(), 0700) != 0) {
      e = errno;
      why = name + "': " + std::strerror(e);
    } else {
      std::string not_private;
      const int sub = open_private_dir_at(dir.fd, name, not_private);
      struct stat st;
      if (sub < 0 || fstat(sub, &st) != 0) {
        e = EEXIST;  // swapped since mkdirat: not ours, left alone
        why = name + "': " + not_private;
      } else {
        c.dev[0] = st.st_dev, c.ino[0] = st.st_ino;
      }
      if (sub >= 0) close(sub);
    }
    if (e) {
      release(dir, c);
      if (e == EEXIST) continue;
      error = "cannot create '" + dir.shown + "/" + why;
      return false;
    }
    // The private directory OTF2 writes in.
    const int priv = make_private_dir_at(dir.fd, "." + name + ".tmp", dir.priv_name, why);
    if (priv < 0) {
      release(dir, c);
      error = "cannot create a private directory in '" + dir.shown + "': " + why;
      return false;
    }
    dir.priv = priv;
    dir.for_otf2 = proc_path(priv);
    claim = c;
    return true;
  }
  error = "too many trace archives named " + base + " in '" + dir.shown + "'";
  return false;
}

bool open_private_dir(ArchiveDir &dir, const std::string &priv_name, std::string &error) {
  if (dir.priv >= 0) return true;  // rank 0 made it
  std::string why;
  dir.priv = open_private_dir_at(dir.fd, priv_name, why);
  if (dir.priv < 0) {
    error = "cannot open '" + dir.shown + "/" + priv_name + "': " + why;
    return false;
  }
  dir.priv_name = priv_name;
  dir.for_otf2 = proc_path(dir.priv);
  return true;
}

uint64_t archive_bytes(const ArchiveDir &dir, const std::string &name) {
  auto size_at = [](int at, const std::string &f) {
    struct stat st;
    return fstatat(at, f.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) ? uint64_t(st.st_size) : 0;
  };
  uint64_t total = size_at(dir.priv, name + ".otf2") + size_at(dir.priv, name + ".def");
  const int sub = openat(dir.priv, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (sub < 0) return total;
  if (DIR *d = fdopendir(sub)) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.') total += size_at(sub, e->d_name);
    closedir(d);  // closes `sub`
  } else {
    close(sub);
  }
  return total;
}

bool publish_archive(const ArchiveDir &dir, const Claim &claim, std::string &error) {
  const std::string left = "; the archive is left whole in '" + dir.shown + "/" + dir.priv_name + "/' (" +
                           claim.name + ".otf2 there)";
  for (int i = 0; i < 3; ++i) {
    std::string what_now;
    if (!still_ours(dir, claim, i, &what_now)) {
      error = "'" + dir.shown + "/" + claim.name + kPieces[i] + "' was replaced while the trace was written (" +
              what_now + "): left alone" + left;
      return false;
    }
  }
  // renameat never follows a link at the target; each target is our empty
  // placeholder (a directory is only ever replaced by an empty directory).
  for (int i = 0; i < 3; ++i) {
    const std::string piece = claim.name + kPieces[i];
    if (renameat(dir.priv, piece.c_str(), dir.fd, piece.c_str()) != 0) {
      error = "cannot move " + piece + " from '" + dir.shown + "/" + dir.priv_name + "/' into place: " +
              std::strerror(errno) + "; what was not moved is still there";
      return false;
    }
  }
  unlinkat(dir.fd, dir.priv_name.c_str(), AT_REMOVEDIR);
  return true;
}

void abandon_archive(const ArchiveDir &dir, const Claim &claim) {
  if (claim.name.empty()) return;
  if (dir.priv >= 0) {
    remove_archive_files(dir.priv, claim.name);
    unlinkat(dir.fd, dir.priv_name.c_str(), AT_REMOVEDIR);
  }
  release(dir, claim);
}

}  // namespace hcc::rt::trace

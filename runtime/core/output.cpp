// hcc runtime — output directory and files (see output.hpp).
#include "output.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <stdexcept>

#include "cubex_writer.hpp"
#include "summary.hpp"
#include "env.hpp"
#include "lifecycle.hpp"
#include "own_line.hpp"
#include "safe_path.hpp"

namespace hcc::rt {

namespace {

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
// The chosen directory ("" = not yet); created on first use and leaked.
std::string &chosen_dir() {
  static std::string *d = new std::string;
  return *d;
}

// The chosen directory's handle, opened when it was chosen (-1 = not yet).
int g_dir_fd = -1;

std::string errno_text(int e) { return std::strerror(e); }

std::string default_dir_name() {
  const RunInfo &run = run_info();
  char stamp[32];
  struct tm tm;
  time_t t = run.start_time ? run.start_time : time(nullptr);
  localtime_r(&t, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
  return "hcc-" + (run.program.empty() ? std::string("program") : run.program) + "-" + stamp;
}

// Relative paths are taken from the working directory of the first event,
// not of the exit: the program may have changed directory meanwhile.
std::string absolute(const std::string &path) {
  const std::string &base = run_info().start_dir;
  if (path.empty() || path[0] == '/' || base.empty()) return path;
  return base + "/" + path;
}

std::string fallback_root() {
  const char *tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

// Writes `text` as `name` in `dir` atomically: a temporary file created
// exclusively (never through a link planted at its name), then renameat.
// Throws naming the file and the reason.
void write_text_atomically(int dirfd, const std::string &dir, const std::string &name, const std::string &text) {
  std::string tmp, why;
  FdGuard fd(create_file_at(dirfd, name + ".tmp." + std::to_string(getpid()), tmp, why));
  if (fd.fd < 0) throw std::runtime_error("cannot create " + dir + "/" + tmp + ": " + why);
  if (!write_all(fd.fd, text) || close(fd.fd) != 0) {
    int e = errno;
    fd.fd = -1;
    unlinkat(dirfd, tmp.c_str(), 0);
    throw std::runtime_error("cannot write " + dir + "/" + tmp + ": " + errno_text(e));
  }
  fd.fd = -1;
  if (renameat(dirfd, tmp.c_str(), dirfd, name.c_str()) != 0) {
    int e = errno;
    unlinkat(dirfd, tmp.c_str(), 0);
    throw std::runtime_error("cannot rename " + dir + "/" + tmp + " to " + dir + "/" + name + ": " + errno_text(e));
  }
}

std::string attr(const profile::Profile &p, const std::string &key) {
  for (const auto &[k, v] : p.attrs)
    if (k == key) return v;
  return "";
}

// The files of one profile: profile<suffix><tag>.cubex and
// summary<suffix><tag>.txt, e.g. profile.cubex, profile-1.rank-3.cubex.
struct FileNames {
  std::string tag;     // "", ".rank-3", ".fork-123"
  std::string suffix;  // "" or "-N": an earlier run's files were kept
  std::string cubex() const { return "profile" + suffix + tag + ".cubex"; }
  std::string summary() const { return "summary" + suffix + tag + ".txt"; }
};

std::string &file_tag() {
  static std::string *t = new std::string;  // leaked, like chosen_dir()
  return *t;
}

// The suffix this process chose for each <dir>/<tag> it wrote: writing again
// replaces its own files, never another run's. Leaked, like chosen_dir().
std::map<std::string, std::string> &own_suffixes() {
  static auto *m = new std::map<std::string, std::string>;
  return *m;
}

FileNames file_names() {
  const RunInfo &run = run_info();
  if (!run.fork_child && !file_tag().empty()) return {"." + file_tag(), ""};
  if (!run.fork_child) return {"", ""};
  return {".fork-" + std::to_string(run.pid), ""};
}

bool exists(int dirfd, const std::string &name) {
  struct stat st;
  return fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

// Gives the written temporary file `tmp` the first name profile<tag>.cubex,
// profile-1<tag>.cubex, … that neither this nor another process has taken; linkat()
// fails with EEXIST rather than replace (or follow a link at the name), so two
// runs finishing at once never take the same name. Returns the suffix.
std::string publish_without_overwriting(int dirfd, const std::string &tmp, const std::string &dir, FileNames names) {
  for (int n = 0; n < 100000; ++n) {
    names.suffix = n ? "-" + std::to_string(n) : "";
    const std::string cubex = names.cubex();
    if (exists(dirfd, names.summary())) continue;  // a summary without its profile is kept too
    if (linkat(dirfd, tmp.c_str(), dirfd, cubex.c_str(), 0) == 0) {
      unlinkat(dirfd, tmp.c_str(), 0);
      return names.suffix;
    }
    if (errno == EEXIST) continue;
    // A file system without hard links: look, then rename.
    if (exists(dirfd, cubex)) continue;
    if (renameat(dirfd, tmp.c_str(), dirfd, cubex.c_str()) != 0) {
      int e = errno;
      unlinkat(dirfd, tmp.c_str(), 0);
      throw std::runtime_error("cannot rename " + dir + "/" + tmp + " to " + dir + "/" + cubex + ": " + errno_text(e));
    }
    return names.suffix;
  }
  unlinkat(dirfd, tmp.c_str(), 0);
  throw std::runtime_error("too many profiles in " + dir);
}

// Whether this process replaces the files at `names` (HCC_OVERWRITE=1, or
// it wrote them itself before: then names.suffix is its own suffix).
bool replaces(const std::string &dir, FileNames &names) {
  pthread_mutex_lock(&g_lock);
  auto own = own_suffixes().find(dir + "/" + names.tag);
  const bool replace = settings().overwrite || own != own_suffixes().end();
  if (own != own_suffixes().end()) names.suffix = own->second;
  pthread_mutex_unlock(&g_lock);
  return replace;
}

// Fills a new file in `dirfd` with the .cubex and returns the profile
// summary.txt is made of, or null when it failed (having said why).
using FillCubex = std::function<const profile::Profile *(int fd, const std::string &shown)>;

// Writes both files into the directory `dirfd` (shown as `dir`): the .cubex
// into a new file (created exclusively, never through a link), which then
// takes its name; returns the names used. An earlier run's files are kept
// unless HCC_OVERWRITE=1 (the cubex file decides the suffix, the summary
// follows it); the files this process wrote before are replaced.
FileNames write_files(const FillCubex &fill, int dirfd, const std::string &dir, FileNames names) {
  const bool replace = replaces(dir, names);
  std::string tmp, why;
  FdGuard fd(create_file_at(dirfd, ".profile" + names.tag + ".cubex.new." + std::to_string(getpid()), tmp, why));
  if (fd.fd < 0) throw std::runtime_error("cannot create " + dir + "/" + tmp + ": " + why);
  const profile::Profile *text = nullptr;
  try {
    text = fill(fd.fd, dir + "/" + tmp);
  } catch (...) {
    unlinkat(dirfd, tmp.c_str(), 0);
    throw;
  }
  if (!text) {
    unlinkat(dirfd, tmp.c_str(), 0);
    throw std::runtime_error("the profile " + dir + "/" + names.cubex() + " could not be written");
  }
  if (!replace) {
    names.suffix = publish_without_overwriting(dirfd, tmp, dir, names);
  } else if (renameat(dirfd, tmp.c_str(), dirfd, names.cubex().c_str()) != 0) {  // the link itself, never its target
    const int e = errno;
    unlinkat(dirfd, tmp.c_str(), 0);
    throw std::runtime_error("cannot rename " + dir + "/" + tmp + " to " + dir + "/" + names.cubex() + ": " +
                             errno_text(e));
  }
  pthread_mutex_lock(&g_lock);
  own_suffixes()[dir + "/" + names.tag] = names.suffix;
  pthread_mutex_unlock(&g_lock);
  std::string summary = profile::summary_text(*text);
  if (!summary.empty() && summary.back() != '\n') summary += '\n';  // a text file ends its last line
  write_text_atomically(dirfd, dir, names.summary(), summary);
  return names;
}

}  // namespace

std::string prepare_output_dir(std::string *error) {
  pthread_mutex_lock(&g_lock);
  std::string why;
  if (chosen_dir().empty()) {
    const std::string wanted = absolute(settings().output_dir);
    if (g_dir_fd >= 0) close(g_dir_fd);
    g_dir_fd = -1;
    if (!wanted.empty()) {
      g_dir_fd = open_dir_creating(wanted, why);
      if (g_dir_fd >= 0) chosen_dir() = wanted;
      else why = "cannot create output directory '" + wanted + "': " + why;
    } else {
      const std::string parent = run_info().start_dir.empty() ? "." : run_info().start_dir;
      std::string name;
      FdGuard parent_fd(open_dir_creating(parent, why));
      g_dir_fd = parent_fd.fd < 0 ? -1 : make_new_dir_at(parent_fd.fd, default_dir_name(), name, why);
      if (g_dir_fd >= 0) chosen_dir() = parent + "/" + name;
      else why = "cannot create output directory '" + parent + "/" + (name.empty() ? default_dir_name() : name) + "': " + why;
    }
  }
  std::string dir = chosen_dir();
  pthread_mutex_unlock(&g_lock);
  if (error) *error = why;
  return dir;
}

int output_dir_handle(std::string &dir, std::string *error) {
  std::string why;
  dir = prepare_output_dir(&why);
  if (dir.empty()) {
    if (error) *error = why.empty() ? "no output directory" : why;
    return -1;
  }
  pthread_mutex_lock(&g_lock);
  struct stat st;
  if (g_dir_fd >= 0 && (fstat(g_dir_fd, &st) != 0 || st.st_nlink == 0)) {
    close(g_dir_fd);  // removed since it was chosen: created again below
    g_dir_fd = -1;
  }
  if (g_dir_fd < 0) g_dir_fd = open_dir_creating(dir, why);
  const int fd = g_dir_fd >= 0 ? fcntl(g_dir_fd, F_DUPFD_CLOEXEC, 0) : -1;
  if (g_dir_fd >= 0 && fd < 0) why = std::strerror(errno);
  pthread_mutex_unlock(&g_lock);
  if (fd < 0 && error) *error = "cannot open output directory '" + dir + "': " + why;
  return fd;
}

void output_lock() { pthread_mutex_lock(&g_lock); }
void output_unlock() { pthread_mutex_unlock(&g_lock); }

void set_file_tag(const std::string &tag) {
  pthread_mutex_lock(&g_lock);
  file_tag() = tag;
  pthread_mutex_unlock(&g_lock);
}

std::string current_file_tag() {
  pthread_mutex_lock(&g_lock);
  std::string tag = file_tag();
  pthread_mutex_unlock(&g_lock);
  return tag;
}

void use_output_dir(const std::string &dir) {
  pthread_mutex_lock(&g_lock);
  settings_to_change().output_dir = dir;
  chosen_dir().clear();
  pthread_mutex_unlock(&g_lock);
}

namespace {

using WriteIn = std::function<FileNames(int dirfd, const std::string &dir, FileNames names)>;

// Writes with `write_in` into the output directory; when that fails, says
// why and writes under $TMPDIR instead, unless `may_retry` says the first
// attempt used up what it writes.
std::string write_somewhere(const WriteIn &write_in, const std::function<bool()> &may_retry,
                            const profile::Profile *shown_profile) {
  FileNames names = file_names();
  std::string error, dir;
  FdGuard dirfd(output_dir_handle(dir, &error));
  if (dirfd.fd >= 0) {
    try {
      names = write_in(dirfd.fd, dir, names);
      if (settings().verbose >= 1) {
        start_own_line();
        std::fprintf(stderr, "hcc: profile written to %s/%s\n", dir.c_str(), names.cubex().c_str());
        if (!names.suffix.empty()) {
          FileNames earlier = names;
          earlier.suffix = "";
          std::fprintf(stderr,
                       "hcc: %s already held %s or %s of an earlier run: kept them, this run's profile "
                       "went beside them (HCC_OVERWRITE=1 replaces them instead)\n",
                       dir.c_str(), earlier.cubex().c_str(), earlier.summary().c_str());
        }
      }
      if (settings().verbose >= 2 && shown_profile)
        std::fprintf(stderr, "hcc: %zu thread(s), %zu call paths, %zu regions, clock %s\n",
                     shown_profile->locations.size(), shown_profile->cnodes.size(), shown_profile->regions.size(),
                     attr(*shown_profile, "clock description").c_str());
      return dir + "/" + names.cubex();
    } catch (const std::exception &e) {
      error = e.what();
    }
  }
  // Nothing is lost: say what failed, then write under $TMPDIR instead.
  start_own_line();
  std::fprintf(stderr, "hcc: error: %s\n", error.c_str());
  if (!may_retry()) {
    std::fprintf(stderr, "hcc: error: the profile is lost\n");
    return "";
  }
  // The fallback directory is new (mkdirat), so a link planted at its name in
  // a shared /tmp is skipped, never written through.
  std::string name, why;
  FdGuard root(open_dir_creating(fallback_root(), why));
  FdGuard fallback_fd(root.fd < 0 ? -1 : make_new_dir_at(root.fd, default_dir_name(), name, why));
  const std::string fallback = fallback_root() + "/" + name;
  if (fallback_fd.fd < 0) {
    std::fprintf(stderr, "hcc: error: cannot create fallback directory '%s': %s; the profile is lost\n",
                 name.empty() ? fallback_root().c_str() : fallback.c_str(), why.c_str());
    return "";
  }
  try {
    names = write_in(fallback_fd.fd, fallback, names);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "hcc: error: %s; the profile is lost\n", e.what());
    return "";
  }
  // Always printed, even with HCC_VERBOSE=0: the user must learn where it went.
  std::fprintf(stderr, "hcc: profile written to fallback directory instead: %s/%s\n", fallback.c_str(),
               names.cubex().c_str());
  return fallback + "/" + names.cubex();
}

}  // namespace

std::string write_profile(const profile::Profile &p) {
  const FillCubex fill = [&](int fd, const std::string &shown) {
    cubex_writer::write_fd(p, fd, shown);
    return &p;
  };
  return write_somewhere([&](int dirfd, const std::string &dir, FileNames names) {
    return write_files(fill, dirfd, dir, names);
  }, [] { return true; }, &p);
}

std::string write_profile_streamed(const StreamBody &body) {
  bool called = false;  // the body runs once: its input cannot be read again
  profile::Profile text;
  const FillCubex fill = [&](int fd, const std::string &shown) -> const profile::Profile * {
    called = true;
    return body(fd, shown, text) ? &text : nullptr;
  };
  const std::string path = write_somewhere([&](int dirfd, const std::string &dir, FileNames names) {
    return write_files(fill, dirfd, dir, names);
  }, [&] { return !called; }, nullptr);
  if (!called) {  // no directory at all: the body still takes in what others send
    profile::Profile unused;
    body(-1, "", unused);
  }
  return path;
}

}  // namespace hcc::rt

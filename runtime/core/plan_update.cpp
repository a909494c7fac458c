// hcc — HCC_PLAN_UPDATE (see plan_update.hpp).
#include "plan_update.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "config/config.hpp"
#include "env.hpp"
#include "lifecycle.hpp"
#include "own_line.hpp"
#include "private_dir.hpp"
#include "plans/judge.hpp"

namespace hcc::rt {

namespace {

// Why the entry at `name` in `dir` must not be replaced by a plan, or "".
// renameat replaces whatever non-directory stands at a name, and root may
// rename over anything: so only an absent name, a regular file of ours, or
// a link of ours (the link itself is replaced, never its target) is taken.
// A device (HCC_PLAN_UPDATE=/dev/null as root), a FIFO, a socket or another
// user's entry is left as it is.
std::string unreplaceable(int dir, const std::string &name) {
  struct stat st;
  if (fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
    return errno == ENOENT ? "" : std::string("cannot check it: ") + std::strerror(errno);
  if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
    const char *what = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                                              : "not a regular file";
    return std::string("is ") + what + ", not a plan";
  }
  if (st.st_uid != geteuid()) return "is owned by uid " + std::to_string(st.st_uid);
  return "";
}

}  // namespace

void update_plan_if_requested(const profile::Profile &p, const std::string &profile_path) {
  const char *file = config::nonempty("HCC_PLAN_UPDATE");
  if (!file || profile_path.empty()) return;
  // A fork child's profile is a part of the run (its own .fork-PID file):
  // the plan is the parent's, written once, not by whichever exits last.
  if (run_info().fork_child) return;
  const std::string path = file;
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string error;
  if (name.empty() || name == "." || name == "..") {
    error = "names no file";
  } else {
    // The directory is checked once and used by handle: what hcc builds
    // from the plan must come from a place only this user can change.
    const int dirfd = open_private_dir(dir, error);
    if (dirfd >= 0 && !(error = unreplaceable(dirfd, name)).empty()) {
      ::close(dirfd);
    } else if (dirfd >= 0) {
      const std::string text = hcc::report::plan_text({{&p, profile_path}}, hcc::report::SuggestRule());
      if (!replace_file_at(dirfd, name, text, error, 0644)) error = "cannot write it: " + error;
      ::close(dirfd);
    } else {
      error = "its directory " + dir + ": " + error;
    }
  }
  if (!error.empty()) {
    start_own_line();
    std::fprintf(stderr, "hcc: error: HCC_PLAN_UPDATE=%s %s; the plan is not updated\n", config::shown(file).c_str(), error.c_str());
  } else if (settings().verbose >= 1) {
    start_own_line();
    std::fprintf(stderr, "hcc: plan written to %s (from %s)\n", path.c_str(), profile_path.c_str());
  }
}

}  // namespace hcc::rt

// hcc — HCC_PLAN_UPDATE (see plan_update.hpp).
#include "plan_update.hpp"

#include <unistd.h>

#include <cstdio>

#include "config/config.hpp"
#include "env.hpp"
#include "own_line.hpp"
#include "private_dir.hpp"
#include "plans/judge.hpp"

namespace hcc::rt {

void update_plan_if_requested(const profile::Profile &p, const std::string &profile_path) {
  const char *file = config::nonempty("HCC_PLAN_UPDATE");
  if (!file || profile_path.empty()) return;
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
    if (dirfd >= 0) {
      const std::string text = hcc::report::plan_text({{&p, profile_path}}, hcc::report::SuggestRule());
      if (!replace_file_at(dirfd, name, text, error, 0644)) error = "cannot write it: " + error;
      ::close(dirfd);
    } else {
      error = "its directory " + dir + ": " + error;
    }
  }
  if (!error.empty()) {
    start_own_line();
    std::fprintf(stderr, "hcc: error: HCC_PLAN_UPDATE=%s %s; the plan is not updated\n", path.c_str(), error.c_str());
  } else if (settings().verbose >= 1) {
    start_own_line();
    std::fprintf(stderr, "hcc: plan written to %s (from %s)\n", path.c_str(), profile_path.c_str());
  }
}

}  // namespace hcc::rt

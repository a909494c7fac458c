// hcc — instrumentation plans at compile time (see plan.hpp).
#include "plan.hpp"

#include <sys/stat.h>

#include <cerrno>

#include "config/config.hpp"
#include "filter/filter.hpp"
#include "io/regular_file.hpp"
#include "paths.hpp"
#include "private_dir.hpp"
#include "trusted_open.hpp"

namespace hcc::driver {

namespace {

constexpr const char *kPlanName = "hcc.plan";
constexpr const char *kPlanRule =
    " (a plan decides what is compiled; it must be yours and writable by you only; HCC_PLAN=off ignores it)";

// Why the plan opened as `f` is not trusted, or "". Judged on the opened
// descriptor and the directory handle its entry was found in.
std::string untrusted_plan(const OpenedFile &f) {
  if (!S_ISREG(f.st.st_mode)) return "not a regular file";
  if (std::string why = hcc::rt::untrusted_because(f.st); !why.empty()) return why;
  const std::string dir_why = hcc::rt::untrusted_because(f.holder);
  if (dir_why.empty()) return "";  // yours, writable by you only: every name in it is your doing
  if (!(f.holder.st_mode & S_ISVTX)) return "its directory " + f.holder_name + " is " + dir_why;
  // A sticky directory (/tmp): others may add names there, but only a
  // name's owner may remove or rename it. A plan of yours with a single
  // name was put there by you; a second name may be anyone's hard link to
  // any file of yours (fs.protected_hardlinks is not relied on).
  if (f.st.st_nlink != 1)
    return "it has " + std::to_string(f.st.st_nlink) + " names (hard links) in the sticky directory " +
           f.holder_name + ", where others may add one";
  return "";
}

}  // namespace

bool plan_for_source(const std::string &source, Plan &plan, std::string &error) {
  plan = Plan();
  const char *named = config::text("HCC_PLAN");
  if (named && config::parse_switch(named) == true) named = nullptr;  // on: the default, hcc.plan beside the source
  std::string path;
  if (named && *named) {
    if (config::parse_switch(named) == false) return true;  // off, no, 0, false
    path = named;
  } else {
    const std::string dir = dir_name(source);
    path = dir == "." ? kPlanName : dir + "/" + kPlanName;
  }
  const OpenedFile f = open_through_trusted_links(path);
  if (f.fd < 0) {
    if (f.error == ENOENT && !(named && *named)) return true;  // no plan beside the source
    error = f.link_refused ? "plan " + path + " refused: " + f.why + kPlanRule
                           : "plan " + path + ": cannot open it: " + f.why;
    return false;
  }
  // Nothing of a refused plan is read: no message can show its text.
  std::string why = untrusted_plan(f);
  if (why.empty() && !hcc::io::read_regular_fd(f.fd, hcc::io::kFilterFileLimit, plan.text, &why) && why.empty())
    why = "cannot read it";
  if (!why.empty()) {
    error = "plan " + path + " refused: " + why + kPlanRule;
    plan = Plan();
    return false;
  }
  hcc::filter::Filter filter;
  if (!filter.add_text(plan.text, path, error)) {
    plan = Plan();
    return false;
  }
  plan.path = path;
  return true;
}

std::vector<std::string> plan_decisions(const std::string &text) {
  std::vector<std::string> out;
  for (size_t b = 0; b < text.size();) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    const std::string line = text.substr(b, e - b);
    if (line.rfind("# left out ", 0) == 0 || line.rfind("# kept ", 0) == 0 || line.rfind("# counted ", 0) == 0)
      out.push_back(line.substr(2));
    b = e + 1;
  }
  return out;
}

}  // namespace hcc::driver

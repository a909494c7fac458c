// hcc — instrumentation plans at compile time (see plan.hpp).
#include "plan.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "config/config.hpp"
#include "filter/filter.hpp"
#include "io/regular_file.hpp"
#include "paths.hpp"
#include "private_dir.hpp"

namespace hcc::driver {

namespace {

constexpr const char *kPlanName = "hcc.plan";

// Why the plan at `path` (open as `fd`) is not trusted, or "".
std::string untrusted_plan(int fd, const std::string &path) {
  struct stat st;
  if (fstat(fd, &st) != 0) return std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  if (std::string why = hcc::rt::untrusted_because(st); !why.empty()) return why;
  // Its directory: the instrumentor opens the plan again by name, so nobody
  // else may be able to put another file in its place (a sticky directory
  // lets only the owner rename or remove it).
  const std::string dir = dir_name(path);
  struct stat ds;
  if (stat(dir.c_str(), &ds) != 0) return "its directory " + dir + ": " + std::strerror(errno);
  if (!(ds.st_mode & S_ISVTX))
    if (std::string why = hcc::rt::untrusted_because(ds); !why.empty()) return "its directory " + dir + " is " + why;
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
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == ENOENT && !(named && *named)) return true;  // no plan beside the source
    error = "plan " + path + ": cannot open it: " + std::strerror(errno);
    return false;
  }
  std::string why = untrusted_plan(fd, path);
  if (why.empty() && !hcc::io::read_regular_fd(fd, hcc::io::kFilterFileLimit, plan.text, &why) && why.empty())
    why = "cannot read it";
  ::close(fd);
  if (!why.empty()) {
    error = "plan " + path + " refused: " + why +
            " (a plan decides what is compiled; it must be yours and writable by you only; HCC_PLAN=off ignores it)";
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

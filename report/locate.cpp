// hcc-report — resolves PATH (file, run directory, or the newest hcc-* run).
#include "locate.hpp"

#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;

namespace hcc::report {
namespace {

std::string profile_in(const fs::path &dir) {
  const fs::path f = dir / "profile.cubex";
  std::error_code ec;
  if (!fs::is_regular_file(f, ec))
    throw std::runtime_error("directory " + dir.string() + " contains no profile.cubex");
  return f.string();
}

}  // namespace

std::string locate_profile(const std::string &arg, const std::string &cwd) {
  std::error_code ec;
  if (!arg.empty()) {
    if (fs::is_directory(arg, ec)) return profile_in(arg);
    return arg;  // read_cubex reports a missing or malformed file precisely
  }
  // The runtime writes each run into its own hcc-<...> directory; the newest
  // one is almost always the run the user just made.
  fs::path newest;
  fs::file_time_type newest_time{};
  for (fs::directory_iterator it(cwd, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("hcc-", 0) != 0 || !it->is_directory(ec)) continue;
    const auto t = fs::last_write_time(it->path(), ec);
    if (ec) continue;
    if (newest.empty() || t > newest_time) {
      newest = it->path();
      newest_time = t;
    }
  }
  if (newest.empty())
    throw std::runtime_error("no PATH given and no hcc-* directory in " + fs::absolute(cwd, ec).string());
  return profile_in(newest);
}

}  // namespace hcc::report

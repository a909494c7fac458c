// hcc-report — resolves PATH (file, run directory, or the newest hcc-* run).
#include "locate.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <vector>
#include <stdexcept>
#include <system_error>

namespace fs = std::filesystem;

namespace hcc::report {
namespace {

// The runtime never overwrites an earlier run's profile: a second run into
// the same HCC_OUTPUT_DIR writes profile-1.cubex, then profile-2.cubex …
// The newest of them is the run the user just made.
std::string profile_in(const fs::path &dir, std::string *note) {
  static const std::regex name("profile(-[0-9]+)?\\.cubex");
  std::error_code ec;
  fs::path newest;
  fs::file_time_type newest_time{};
  long newest_n = -1;
  int count = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string base = it->path().filename().string();
    std::smatch m;
    if (!std::regex_match(base, m, name) || !it->is_regular_file(ec)) continue;
    const auto t = fs::last_write_time(it->path(), ec);
    if (ec) continue;
    const long n = m[1].matched ? std::stol(m[1].str().substr(1)) : 0;
    ++count;
    if (newest.empty() || t > newest_time || (t == newest_time && n > newest_n)) {
      newest = it->path();
      newest_time = t;
      newest_n = n;
    }
  }
  if (newest.empty()) throw std::runtime_error("directory " + dir.string() + " contains no profile.cubex");
  if (count > 1 && note)
    *note = "hcc-report: " + dir.string() + " holds " + std::to_string(count) +
            " profiles (one per run); reading the newest, " + newest.filename().string() +
            " (name a .cubex file to read another)";
  return newest.string();
}

// The anchor of the run's trace in `dir`. Whatever stands at traces.otf2 is
// taken, so that the archive's check (views/trace_archive.hpp) names it when
// it is not a regular file; the scan for a rank's own archive takes regular
// files only (it took a FIFO named traces.otf2, which OTF2 then waited on).
std::string trace_in(const fs::path &dir) {
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir / "traces.otf2", ec))) return (dir / "traces.otf2").string();
  std::vector<std::string> tagged;  // traces.rank-3.otf2: a rank that wrote alone
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (name.rfind("traces.", 0) == 0 && name.size() > 5 && name.compare(name.size() - 5, 5, ".otf2") == 0 &&
        fs::is_regular_file(it->symlink_status(type_ec)))
      tagged.push_back(it->path().string());
  }
  if (tagged.size() == 1) return tagged.front();
  if (tagged.empty())
    throw std::runtime_error("directory " + dir.string() + " contains no traces.otf2 (run the program with HCC_TRACE=1)");
  std::sort(tagged.begin(), tagged.end());
  std::string list;
  for (const std::string &t : tagged) list += " " + t;
  throw std::runtime_error("directory " + dir.string() + " holds several traces; name one:" + list);
}

// The runtime writes each run into its own hcc-<...> directory; the newest
// one is almost always the run the user just made.
fs::path newest_run(const std::string &cwd) {
  std::error_code ec;
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
  return newest;
}

}  // namespace

std::string locate_trace(const std::string &arg, const std::string &cwd) {
  std::error_code ec;
  if (!arg.empty()) {
    if (fs::is_directory(arg, ec)) return trace_in(arg);
    // Anything else that is there is the archive check's to judge (a FIFO,
    // a link to a device), before OTF2 opens it.
    if (!fs::exists(fs::symlink_status(arg, ec))) throw std::runtime_error("no such trace: " + arg);
    return arg;
  }
  return trace_in(newest_run(cwd));
}

std::string locate_profile(const std::string &arg, const std::string &cwd, std::string *note) {
  std::error_code ec;
  if (!arg.empty()) {
    if (fs::is_directory(arg, ec)) return profile_in(arg, note);
    return arg;  // read_cubex reports a missing or malformed file precisely
  }
  return profile_in(newest_run(cwd), note);
}

}  // namespace hcc::report

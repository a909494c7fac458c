// hcc-report --watch (see watch.hpp).
#include "watch.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <algorithm>
#include <iostream>
#include <map>
#include <thread>
#include <vector>

#include "cubex.hpp"
#include "summary.hpp"

namespace fs = std::filesystem;

namespace hcc::report {

namespace {

using Clock = fs::file_time_type::clock;

bool starts_with(const std::string &s, const char *p) { return s.rfind(p, 0) == 0; }
bool ends_with(const std::string &s, const std::string &e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

// profile.cubex, else a profile.<tag>.cubex (an MPI rank that ended
// without MPI_Finalize), written after `since`: the run is over.
bool final_profile(const fs::path &dir, fs::file_time_type since, fs::path *out) {
  fs::path tagged;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!starts_with(name, "profile.") || !ends_with(name, ".cubex") || starts_with(name, "profile.fork-")) continue;
    std::error_code tec;
    const auto t = fs::last_write_time(it->path(), tec);
    if (tec || t < since) continue;
    if (name == "profile.cubex") {
      if (out) *out = it->path();
      return true;
    }
    if (tagged.empty()) tagged = it->path();
  }
  if (tagged.empty()) return false;
  if (out) *out = tagged;
  return true;
}

// snapshot.cubex, or every snapshot.<tag>.cubex (one per MPI rank) by name.
std::vector<fs::path> snapshots(const fs::path &dir) {
  std::vector<fs::path> tagged;
  std::error_code ec;
  if (fs::exists(dir / "snapshot.cubex", ec)) return {dir / "snapshot.cubex"};
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (starts_with(name, "snapshot.") && ends_with(name, ".cubex")) tagged.push_back(it->path());
  }
  std::sort(tagged.begin(), tagged.end());
  return tagged;
}

// The newest hcc-* directory here that has no final profile yet.
fs::path running_dir(fs::file_time_type since) {
  fs::path best;
  fs::file_time_type best_time{};
  std::error_code ec;
  for (fs::directory_iterator it(".", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!starts_with(name, "hcc-") || !it->is_directory(ec)) continue;
    if (fs::exists(it->path() / "profile.cubex", ec) && !final_profile(it->path(), since, nullptr)) continue;
    const auto t = fs::last_write_time(it->path(), ec);
    if (!ec && (best.empty() || t > best_time)) best = it->path(), best_time = t;
  }
  return best;
}

std::string attr(const profile::Profile &p, const std::string &key) {
  for (const auto &[k, v] : p.attrs)
    if (k == key) return v;
  return "";
}

void draw(std::ostream &out, bool tty, std::size_t top, const fs::path &dir, const std::vector<std::pair<fs::path, profile::Profile>> &ps,
          bool final) {
  if (tty) out << "\x1b[H\x1b[2J";
  else out << "================================================================\n";
  out << "hcc-report --watch " << dir.string() << (final ? "  (run finished)" : "") << "\n";
  for (const auto &[path, p] : ps) {
    const std::string when = attr(p, "hcc.snapshot");
    out << path.filename().string() << ": " << (final ? "final profile" : when.empty() ? "snapshot" : when) << "\n";
    out << profile::hot_paths_text(p, top) << "\n";
  }
  out.flush();
}

}  // namespace

int watch(const WatchOptions &opt, std::ostream &out, std::ostream &err) {
  const bool tty = isatty(STDOUT_FILENO) && &out == &std::cout;
  // File times come from the kernel's coarse clock (a few ms behind):
  // a profile written as the watch begins still counts as after it.
  const auto since = Clock::now() - std::chrono::milliseconds(100);
  const auto started = std::chrono::steady_clock::now();
  auto waited_too_long = [&] {
    return opt.give_up_seconds > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() > opt.give_up_seconds;
  };
  const auto nap = std::chrono::duration<double>(opt.poll_seconds);

  fs::path dir = opt.dir;
  bool said = false;
  std::error_code ec;
  while (dir.empty() ? (dir = running_dir(since)).empty() : !fs::is_directory(dir, ec)) {
    if (!said) err << "hcc-report --watch: waiting for " << (opt.dir.empty() ? "a run (an hcc-* directory here)" : opt.dir)
                   << " … (run the program with HCC_SNAPSHOT=SECONDS)\n";
    said = true;
    if (waited_too_long()) {
      err << "hcc-report --watch: no run appeared\n";
      return 2;
    }
    if (opt.dir.empty()) dir.clear();
    std::this_thread::sleep_for(nap);
  }

  std::map<fs::path, fs::file_time_type> seen;
  for (;;) {
    fs::path fin;
    if (final_profile(dir, since, &fin)) {
      try {
        draw(out, tty, opt.top, dir, {{fin, profile::read_cubex(fin.string())}}, true);
        return 0;
      } catch (const std::exception &) {
        // still being replaced: try again
      }
    }
    const std::vector<fs::path> files = snapshots(dir);
    bool changed = false;
    for (const fs::path &f : files) {
      const auto t = fs::last_write_time(f, ec);
      if (!ec && seen[f] != t) changed = true, seen[f] = t;
    }
    if (changed) {
      std::vector<std::pair<fs::path, profile::Profile>> ps;
      try {
        for (const fs::path &f : files) ps.emplace_back(f, profile::read_cubex(f.string()));
        draw(out, tty, opt.top, dir, ps, false);
      } catch (const std::exception &) {
        seen.clear();  // replaced while we read it (or not a profile): read again next time
      }
    }
    if (files.empty() && waited_too_long()) {
      err << "hcc-report --watch: " << dir.string() << " holds no snapshot (run the program with HCC_SNAPSHOT=SECONDS)\n";
      return 2;
    }
    std::this_thread::sleep_for(nap);
  }
}

}  // namespace hcc::report

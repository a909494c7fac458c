#include "e2e_support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace hcc::e2e {
namespace fs = std::filesystem;

namespace {

// The sanitizer configuration (scripts/test-sanitized.sh) runs these test
// executables of the main build against its own sanitized tool chain:
// E2E_HCC_TREE=<sanitized build tree> takes `hcc` and `hcc-report` from there
// (that hcc builds every program with the runtime's sanitizers) and keeps the
// work files apart, in work-sanitized/ beside work/.
std::string tools_override() {
  const char *t = std::getenv("E2E_HCC_TREE");
  return t && *t ? t : "";
}

std::string work_dir() { return tools_override().empty() ? HCC_E2E_WORK : std::string(HCC_E2E_WORK) + "-sanitized"; }

}  // namespace

std::string shell_quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RunResult run(const std::string &cmd) {
  // Atomic: some tests call run() from two threads at once (a program and
  // the report that reads it while it runs); each call needs its own files.
  static std::atomic<int> counter{0};
  // Captured output lives in the test's work tree, not in /tmp, so nothing is
  // left behind outside the build directory.
  const fs::path dir = fs::path(work_dir()) / ".captured";
  fs::create_directories(dir);
  const std::string base = (dir / (std::to_string(getpid()) + "-" + std::to_string(counter++))).string();
  const std::string full = "(" + cmd + ") >" + base + ".out 2>" + base + ".err";
  const int raw = std::system(full.c_str());
  RunResult r;
  // sh reports a child killed by signal N as exit status 128+N.
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = read_file(base + ".out");
  r.err = read_file(base + ".err");
  fs::remove(base + ".out");
  fs::remove(base + ".err");
  return r;
}

std::vector<Toolchain> toolchains() {
  return {{"gcc", "gcc", "g++"}, {"clang", "clang", "clang++"}};
}

std::string hcc_bin() { return tools_override().empty() ? HCC_E2E_HCC : tools_override() + "/bin/hcc"; }
std::string report_bin() { return tools_override().empty() ? HCC_E2E_REPORT : tools_override() + "/bin/hcc-report"; }
std::string programs_dir() { return HCC_E2E_PROGRAMS; }
std::string samples_dir() { return HCC_E2E_SAMPLES; }

std::string scratch_dir(const std::string &name) {
  const fs::path p = fs::path(work_dir()) / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

Profile Profile::load(const std::string &dir) {
  const RunResult r = run(shell_quote(report_bin()) + " --json " + shell_quote(dir));
  if (r.status != 0) throw std::runtime_error("hcc-report failed on " + dir + ": " + r.err);
  return Profile(nlohmann::json::parse(r.out));
}

Profile::Profile(nlohmann::json j) : j_(std::move(j)) {}

std::string Profile::short_name(const std::string &name) {
  if (name.rfind("lambda at ", 0) == 0) return name;
  // A sampled frame's inlined call keeps its mark: "Vec::dot [inlined]".
  const std::string inlined = " [inlined]";
  if (name.size() > inlined.size() && name.compare(name.size() - inlined.size(), inlined.size(), inlined) == 0)
    return short_name(name.substr(0, name.size() - inlined.size())) + inlined;
  std::string head = name.substr(0, name.find('('));
  // Drop a return type written before the name (__PRETTY_FUNCTION__ form),
  // but not the spaces inside "operator new" and the like.
  const auto op = head.find("operator");
  const auto space = head.rfind(' ', op == std::string::npos ? std::string::npos : op);
  if (space != std::string::npos && (op == std::string::npos || space < op)) head = head.substr(space + 1);
  return head;
}

std::string Profile::region_name(int callpath) const {
  const int region = j_["callpaths"][callpath]["region"].get<int>();
  return j_["regions"][region]["name"].get<std::string>();
}

std::string Profile::path(int callpath) const {
  std::string p;
  for (int c = callpath; c >= 0; c = j_["callpaths"][c]["parent"].get<int>())
    p = short_name(region_name(c)) + (p.empty() ? "" : "/" + p);
  return p;
}

std::vector<std::string> Profile::paths() const {
  std::vector<std::string> out;
  for (std::size_t c = 0; c < j_["callpaths"].size(); ++c) out.push_back(path(static_cast<int>(c)));
  return out;
}

long long Profile::visits(const std::string &want) const {
  long long n = 0;
  for (std::size_t c = 0; c < j_["callpaths"].size(); ++c)
    if (path(static_cast<int>(c)) == want)
      for (const auto &v : j_["callpaths"][c]["values"]["visits"]["excl"]) n += v.get<long long>();
  return n;
}

long long Profile::total_visits(const std::string &name) const {
  long long n = 0;
  for (std::size_t c = 0; c < j_["callpaths"].size(); ++c)
    if (short_name(region_name(static_cast<int>(c))) == name)
      for (const auto &v : j_["callpaths"][c]["values"]["visits"]["excl"]) n += v.get<long long>();
  return n;
}

std::vector<int> Profile::callpaths_where(const std::function<bool(const std::string &)> &pred) const {
  std::vector<int> out;
  for (std::size_t c = 0; c < j_["callpaths"].size(); ++c)
    if (pred(region_name(static_cast<int>(c)))) out.push_back(static_cast<int>(c));
  return out;
}

double Profile::value(int callpath, const std::string &metric, const std::string &kind, int location) const {
  return j_["callpaths"][callpath]["values"][metric][kind][location].get<double>();
}

}  // namespace hcc::e2e

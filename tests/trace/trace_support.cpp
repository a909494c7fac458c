// hcc tracer tests — parsing otf2-print (see trace_support.hpp).
#include "trace_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "e2e_support.hpp"

namespace hcc::trace_test {

std::string build_program(const std::string &dir, const std::string &src) {
  using namespace e2e;
  const std::string exe = dir + "/" + std::filesystem::path(src).stem().string() + ".exe";
  const RunResult r = run(shell_quote(hcc_bin()) + " -O1 " + shell_quote(programs_dir() + "/" + src) + " -o " +
                          shell_quote(exe));
  EXPECT_EQ(r.status, 0) << r.err;
  return exe;
}

std::vector<Event> read_events(const std::string &anchor, std::string *error) {
  const e2e::RunResult r = e2e::run(e2e::shell_quote(HCC_OTF2_PRINT) + " " + e2e::shell_quote(anchor));
  std::vector<Event> out;
  if (r.status != 0) {
    if (error) *error = "otf2-print failed: " + r.err;
    return out;
  }
  // "ENTER      0      7250120151626  Region: \"fib\" <1>"
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    Event e;
    std::string loc, time;
    if (!(ls >> e.kind >> loc >> time)) continue;
    if (loc.empty() || time.empty() || loc.find_first_not_of("0123456789") != std::string::npos ||
        time.find_first_not_of("0123456789") != std::string::npos)
      continue;  // headers and rules
    e.location = std::stoull(loc);
    e.time = std::stoull(time);
    size_t q = line.find("Region: \"");
    if (q != std::string::npos) {
      size_t b = q + 9, end = line.find('"', b);
      e.region = line.substr(b, end - b);
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<std::string> read_definitions(const std::string &anchor, std::string *error) {
  const e2e::RunResult r = e2e::run(e2e::shell_quote(HCC_OTF2_PRINT) + " -G " + e2e::shell_quote(anchor));
  std::vector<std::string> out;
  if (r.status != 0 && error) *error = "otf2-print -G failed: " + r.err;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string check_nesting(const std::vector<Event> &events) {
  std::map<uint64_t, std::vector<std::string>> open;
  std::map<uint64_t, uint64_t> last;
  for (size_t i = 0; i < events.size(); ++i) {
    const Event &e = events[i];
    if (e.time < last[e.location])
      return "event " + std::to_string(i) + " on location " + std::to_string(e.location) + " goes back in time";
    last[e.location] = e.time;
    if (e.kind == "ENTER") open[e.location].push_back(e.region);
    if (e.kind != "LEAVE") continue;
    auto &st = open[e.location];
    if (st.empty() || st.back() != e.region)
      return "event " + std::to_string(i) + ": LEAVE " + e.region + " on location " + std::to_string(e.location) +
             " while " + (st.empty() ? std::string("nothing") : st.back()) + " is innermost";
    st.pop_back();
  }
  for (const auto &[loc, st] : open)
    if (!st.empty()) return std::to_string(st.size()) + " regions still open on location " + std::to_string(loc);
  return "";
}

std::map<std::pair<std::string, std::string>, long> count(const std::vector<Event> &events, int64_t location) {
  std::map<std::pair<std::string, std::string>, long> c;
  for (const Event &e : events)
    if (location < 0 || e.location == uint64_t(location)) ++c[{e.kind, e.region}];
  return c;
}

long events(const std::vector<Event> &events, const std::string &kind, const std::string &region, int64_t location) {
  long n = 0;
  for (const Event &e : events)
    n += e.kind == kind && e.region == region && (location < 0 || e.location == uint64_t(location));
  return n;
}

}  // namespace hcc::trace_test

// hcc-report — folded stacks (see folded.hpp).
#include "folded.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace hcc::report {

using hcc::profile::Profile;

std::string folded_frame(const std::string &name) {
  std::string out = name;
  for (char &ch : out) {
    if (ch == ';') ch = ',';
    else if (ch == '\n' || ch == '\r') ch = ' ';
  }
  return out;
}

namespace {

// Factor that turns the time metric's unit into microseconds.
double to_usec(const std::string &uom) {
  if (uom == "ms" || uom == "msec") return 1e3;
  if (uom == "us" || uom == "usec") return 1.0;
  if (uom == "ns" || uom == "nsec") return 1e-3;
  return 1e6;  // "sec" (ours and Score-P's), "s"
}

}  // namespace

std::string folded_text(const Profile &p, const std::string &metric, int location) {
  const int m = p.metric_index(metric);
  if (m < 0) {
    std::string have;
    for (const auto &x : p.metrics) have += (have.empty() ? "" : ", ") + x.uniq_name;
    throw std::runtime_error("no metric '" + metric + "' in this profile (it has: " + have + ")");
  }
  const auto &met = p.metrics[static_cast<std::size_t>(m)];
  const double scale = metric == "time" ? to_usec(met.uom) : 1.0;
  const std::size_t nl = p.nloc();
  // The walk keeps the current stack as one string (and where each frame
  // starts), so memory stays linear. A path deeper than kMaxFrames (only
  // hostile or unfolded recursions) prints its first kMaxFrames frames,
  // "[N frames]" and its own frame, so each line stays bounded.
  constexpr std::size_t kMaxFrames = 1000;
  std::string stack, out;
  std::vector<std::size_t> starts;  // starts[d]: stack.size() before frame d was appended
  std::size_t depth = 0;
  hcc::profile::walk_preorder(
      p,
      [&](int e) {
        const std::size_t c = static_cast<std::size_t>(e);
        const std::string frame = folded_frame(p.regions[static_cast<std::size_t>(p.cnodes[c].region)].name);
        if (depth < kMaxFrames) {
          starts.push_back(stack.size());
          if (!stack.empty()) stack += ';';
          stack += frame;
        }
        ++depth;
        double sum = 0;
        for (std::size_t l = 0; l < nl; ++l)
          if (location < 0 || static_cast<int>(l) == location) {
            const double x = p.excl[static_cast<std::size_t>(m)][c * nl + l];
            if (std::isfinite(x)) sum += x;
          }
        const long long v = std::llround(sum * scale);
        if (v == 0) return;  // a flame graph draws nothing for it
        out += stack;
        if (depth > kMaxFrames)
          out += ";[" + std::to_string(depth - kMaxFrames - 1) + " frames];" + frame;
        out += ' ';
        out += std::to_string(v);
        out += '\n';
      },
      [&](int) {
        --depth;
        if (depth < kMaxFrames) {
          stack.resize(starts.back());
          starts.pop_back();
        }
      });
  return out;
}

}  // namespace hcc::report

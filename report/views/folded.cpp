// hcc-report — folded stacks (see folded.hpp).
#include "folded.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "marks.hpp"

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

std::string folded_text(const Profile &p, const std::string &metric, int location, bool mark) {
  const int m = p.metric_index(metric);
  if (m < 0) {
    std::string have;
    for (const auto &x : p.metrics) have += (have.empty() ? "" : ", ") + x.uniq_name;
    throw std::runtime_error("no metric '" + metric + "' in this profile (it has: " + have + ")");
  }
  const auto &met = p.metrics[static_cast<std::size_t>(m)];
  const double scale = metric == "time" ? to_usec(met.uom) : 1.0;
  // Only time is marked: a counted region's visits are exact.
  mark = mark && metric == "time";
  const std::size_t nl = p.nloc();
  // The walk keeps the current stack as one string (and where each frame
  // starts) up to kMaxFrames frames, and every frame's name. A path deeper
  // than kMaxFrames (a hostile file, or a recursion that was not folded)
  // prints its first and last kMaxFrames/2 frames around "[N frames]", so
  // each line stays bounded and the output linear in the number of paths.
  constexpr std::size_t kMaxFrames = 64;
  std::string stack, out;
  std::vector<std::size_t> starts;  // starts[d]: stack.size() before frame d was appended
  std::vector<std::string> frames;  // the current path's frames
  hcc::profile::walk_preorder(
      p,
      [&](int e) {
        const std::size_t c = static_cast<std::size_t>(e);
        frames.push_back(folded_frame(p.regions[static_cast<std::size_t>(p.cnodes[c].region)].name));
        if (mark && hcc::profile::path_time_from_samples(p, c)) frames.back() += kFoldedSampledSuffix;
        const std::size_t depth = frames.size();
        if (depth <= kMaxFrames) {
          starts.push_back(stack.size());
          if (!stack.empty()) stack += ';';
          stack += frames.back();
        }
        double sum = 0;
        for (std::size_t l = 0; l < nl; ++l)
          if (location < 0 || static_cast<int>(l) == location) {
            const double x = p.excl[static_cast<std::size_t>(m)][c * nl + l];
            if (std::isfinite(x)) sum += x;
          }
        const long long v = std::llround(sum * scale);
        if (v == 0) return;  // a flame graph draws nothing for it
        if (depth <= kMaxFrames) {
          out += stack;
        } else {
          out.append(stack, 0, starts[kMaxFrames / 2]);
          out += ";[" + std::to_string(depth - kMaxFrames) + " frames]";
          for (std::size_t f = depth - kMaxFrames / 2; f < depth; ++f) out += ";" + frames[f];
        }
        out += ' ';
        out += std::to_string(v);
        out += '\n';
      },
      [&](int) {
        if (frames.size() <= kMaxFrames) {
          stack.resize(starts.back());
          starts.pop_back();
        }
        frames.pop_back();
      });
  return out;
}

}  // namespace hcc::report
